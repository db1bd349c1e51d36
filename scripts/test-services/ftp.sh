#!/usr/bin/env bash
# Two Debian pure-ftpd servers for the ClipShare FTP storage tests, on
# loopback, sharing one directory: one plain FTP, one that requires explicit
# TLS (AUTH TLS) with a self-signed certificate made here.
#   scripts/test-services/ftp.sh start|stop|env
# Everything lives in .tmp/services/ftp (recreated on every start).
#
#   user "clipshare", password "ftp-secret" (a virtual user mapped to nobody)
#   ports  control ports and passive ranges from ${CLIPSHARE_TEST_FTP_PORT:-37310} on
#   CA     .tmp/services/ftp/cert.pem (the certificate itself)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR="$ROOT/.tmp/services/ftp"
BASE=${CLIPSHARE_TEST_FTP_PORT:-37310}
# Test files run side by side, each with its own connection pools: room for all of them.
PASSIVE_SPAN=100
MAX_CLIENTS=400

# shellcheck source=ports.sh
. "$(dirname "${BASH_SOURCE[0]}")/ports.sh"

stop() {
  stop_pids "$DIR"
}

# serve NAME PORT TLS_MODE: pure-ftpd in the foreground (it writes its pid file itself).
serve() {
  local name=$1 port=$2 tls=$3
  local passive=$((port + 1))
  # -E no anonymous, -A chroot everyone, -H no reverse DNS, -u 1 lets the nobody user in,
  # -c the number of clients at once (50 by default: the test suite's pools go past it).
  pure-ftpd -S "127.0.0.1,$port" -l "puredb:$DIR/users.pdb" -E -A -H -u 1 -c "$MAX_CLIENTS" \
    -p "$passive:$((passive + PASSIVE_SPAN - 1))" -Y "$tls" -2 "$DIR/server.pem" \
    -g "$DIR/$name.pid" >"$DIR/$name.log" 2>&1 &
}

start() {
  command -v pure-ftpd >/dev/null || { echo "ftp.sh: pure-ftpd is not installed (scripts/install-system-deps.sh)" >&2; exit 1; }
  stop
  rm -rf "$DIR"
  mkdir -p "$DIR/data"
  chown nobody:nogroup "$DIR/data"
  openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$DIR/key.pem" -out "$DIR/cert.pem" 2>/dev/null
  cat "$DIR/key.pem" "$DIR/cert.pem" >"$DIR/server.pem"
  # A cheap SHA-512 crypt hash: pure-pw's default (argon2id, t=255) makes every login take seconds.
  printf 'clipshare:%s:65534:65534::%s/./::::::::::::\n' "$(openssl passwd -6 ftp-secret)" "$DIR/data" >"$DIR/users"
  pure-pw mkdb "$DIR/users.pdb" -f "$DIR/users" >/dev/null
  local plain tls
  plain=$(first_free "$BASE" $((PASSIVE_SPAN + 1)))
  tls=$(first_free $((plain + PASSIVE_SPAN + 1)) $((PASSIVE_SPAN + 1)))
  serve plain "$plain" 0
  serve tls "$tls" 2
  wait_port "$plain"
  wait_port "$tls"
  cat >"$DIR/env" <<ENV
export CLIPSHARE_TEST_FTP_HOST=127.0.0.1
export CLIPSHARE_TEST_FTP_PORT=$plain
export CLIPSHARE_TEST_FTPS_PORT=$tls
export CLIPSHARE_TEST_FTPS_CA=$DIR/cert.pem
export CLIPSHARE_TEST_FTP_USER=clipshare
export CLIPSHARE_TEST_FTP_PASS=ftp-secret
ENV
}

service_command "$@"
