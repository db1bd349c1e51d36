# Helpers shared by the test-service scripts (sourced, not run): ports, and the
# start|stop|env command line of a service whose script defines start, stop and $DIR.

port_busy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# first_free START COUNT: the first port >= START followed by COUNT-1 more, all free.
first_free() {
  local p=$1 n=$2 i ok
  for _ in $(seq 1 64); do
    ok=1
    for ((i = 0; i < n; i++)); do
      if port_busy $((p + i)); then ok=0; break; fi
    done
    if [ "$ok" = 1 ]; then echo "$p"; return 0; fi
    p=$((p + n))
  done
  echo "$(basename "$0"): no free port found from $1 on" >&2
  return 1
}

# wait_port PORT NAME: until something listens on 127.0.0.1:PORT (10 s at most).
wait_port() {
  for _ in $(seq 1 100); do
    port_busy "$1" && return 0
    sleep 0.1
  done
  echo "$(basename "$0"): nothing listens on $1 (${2:-})" >&2
  return 1
}

# stop_pids DIR: ends the processes whose pid files are in DIR.
stop_pids() {
  for f in "$1"/*.pid; do
    [ -f "$f" ] || continue
    kill "$(cat "$f")" 2>/dev/null || true
    rm -f "$f"
  done
}

# service_command start|stop|env: runs the service script's start or stop, or prints the
# variables its start wrote to $DIR/env.
service_command() {
  case "${1:-}" in
    start) start ;;
    stop) stop ;;
    env) cat "$DIR/env" ;;
    *) echo "usage: $0 start|stop|env" >&2; exit 2 ;;
  esac
}
