#!/usr/bin/env bash
# Throwaway PostgreSQL cluster for ClipShare tests.
#   scripts/test-services/postgres.sh start|stop|status|url
# Data lives in .tmp/services/pg (recreated on every start); the server runs as
# the "postgres" OS user with trust auth and fsync off, on 127.0.0.1 only (TCP,
# no Unix socket), on the first free port from CLIPSHARE_TEST_PG_PORT (default
# 54329) on. The port in use is recorded in .tmp/services/pg/port.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR="$ROOT/.tmp/services/pg"
PORT=${CLIPSHARE_TEST_PG_PORT:-54329}
PG_USER=postgres

pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$d" ] || [ ! -x "$d/pg_ctl" ]; then
    echo "postgres.sh: PostgreSQL server binaries not found (run scripts/install-system-deps.sh)" >&2
    exit 1
  fi
  echo "$d"
}

# Run a command as the postgres OS user (or as ourselves when we are not root).
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}

port_busy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

first_free() {
  local p=$1
  for _ in $(seq 1 64); do
    port_busy "$p" || { echo "$p"; return 0; }
    p=$((p + 1))
  done
  echo "postgres.sh: no free port found from $1 on" >&2
  return 1
}

load_port() {
  [ -f "$DIR/port" ] || { echo "postgres.sh: not started" >&2; return 1; }
  PORT=$(cat "$DIR/port")
}

do_stop() {
  local bin
  bin=$(pg_bin)
  if [ -f "$DIR/data/postmaster.pid" ]; then
    as_pg "$bin/pg_ctl" -D "$DIR/data" -m immediate -w -t 20 stop >/dev/null 2>&1 || true
  fi
  # If pg_ctl could not stop it, end the postmaster we started by its PID.
  if [ -f "$DIR/postmaster.pid" ]; then
    local pid
    pid=$(cat "$DIR/postmaster.pid")
    if [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] &&
      tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$DIR/data"; then
      kill -QUIT "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$DIR/postmaster.pid"
  fi
}

do_start() {
  local bin
  bin=$(pg_bin)
  do_stop
  PORT=$(first_free "$PORT")
  rm -rf "$DIR"
  mkdir -p "$DIR"
  echo "$PORT" >"$DIR/port"
  if [ "$(id -u)" -eq 0 ]; then
    chown "$PG_USER:$PG_USER" "$DIR"
    # The postgres user must be able to traverse the path to the data directory
    # (e.g. a checkout under /root): grant search permission where it lacks it.
    if ! runuser -u "$PG_USER" -- test -x "$DIR"; then
      local d="$DIR"
      while [ "$d" != "/" ]; do
        d=$(dirname "$d")
        runuser -u "$PG_USER" -- test -x "$d" || chmod o+x "$d"
      done
    fi
  fi
  as_pg "$bin/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >"$DIR/initdb.log" 2>&1 || {
    cat "$DIR/initdb.log" >&2
    exit 1
  }
  # TCP only: a Unix socket path inside a deep checkout can exceed the length limit.
  as_pg "$bin/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 \
    -o "-p $PORT -c unix_socket_directories='' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null || {
    echo "postgres.sh: server failed to start; log follows" >&2
    cat "$DIR/server.log" >&2 || true
    exit 1
  }
  head -n 1 "$DIR/data/postmaster.pid" >"$DIR/postmaster.pid"
  echo "postgres: 127.0.0.1:$PORT (pid $(cat "$DIR/postmaster.pid"))"
}

case "${1:-}" in
  start) do_start ;;
  stop) do_stop ;;
  status)
    if [ -f "$DIR/postmaster.pid" ] && kill -0 "$(cat "$DIR/postmaster.pid")" 2>/dev/null && load_port; then
      echo "postgres: running on 127.0.0.1:$PORT"
    else
      echo "postgres: not running"
      exit 1
    fi
    ;;
  url)
    load_port
    echo "postgres://postgres@127.0.0.1:$PORT/postgres"
    ;;
  *)
    echo "usage: $0 start|stop|status|url" >&2
    exit 2
    ;;
esac
