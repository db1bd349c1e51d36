#!/usr/bin/env bash
# WebDAV and SFTP servers for the ClipShare remote-storage tests, both
# `rclone serve` on loopback, each over its own empty directory.
#   scripts/test-services/rclone.sh start|stop|env
# Everything lives in .tmp/services/rclone (recreated on every start).
#
#   WebDAV   http://127.0.0.1:PORT/   user "clipshare", password "dav-secret"
#   SFTP     127.0.0.1:PORT           user "clipshare", password "sftp-secret"
#   ports    the first free ones from ${CLIPSHARE_TEST_RCLONE_PORT:-37210} on
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR="$ROOT/.tmp/services/rclone"
BASE=${CLIPSHARE_TEST_RCLONE_PORT:-37210}

# shellcheck source=ports.sh
. "$(dirname "${BASH_SOURCE[0]}")/ports.sh"

stop() {
  stop_pids "$DIR"
}

start() {
  command -v rclone >/dev/null || { echo "rclone.sh: rclone is not installed (scripts/install-system-deps.sh)" >&2; exit 1; }
  stop
  rm -rf "$DIR"
  mkdir -p "$DIR/webdav" "$DIR/sftp"
  # A fixed host key, so rclone does not write one into the user's cache.
  ssh-keygen -q -t ed25519 -N "" -f "$DIR/sftp_host_key" >/dev/null
  local dav_port sftp_port
  dav_port=$(first_free "$BASE" 1)
  sftp_port=$(first_free $((dav_port + 1)) 1)
  # No config file: the served directories are plain local paths.
  RCLONE_CONFIG=/dev/null rclone serve webdav "$DIR/webdav" --addr "127.0.0.1:$dav_port" \
    --user clipshare --pass dav-secret >"$DIR/webdav.log" 2>&1 &
  echo $! >"$DIR/webdav.pid"
  RCLONE_CONFIG=/dev/null rclone serve sftp "$DIR/sftp" --addr "127.0.0.1:$sftp_port" \
    --user clipshare --pass sftp-secret --key "$DIR/sftp_host_key" >"$DIR/sftp.log" 2>&1 &
  echo $! >"$DIR/sftp.pid"
  wait_port "$dav_port" webdav
  wait_port "$sftp_port" sftp
  cat >"$DIR/env" <<ENV
export CLIPSHARE_TEST_WEBDAV_URL=http://127.0.0.1:$dav_port/
export CLIPSHARE_TEST_WEBDAV_USER=clipshare
export CLIPSHARE_TEST_WEBDAV_PASS=dav-secret
export CLIPSHARE_TEST_SFTP_HOST=127.0.0.1
export CLIPSHARE_TEST_SFTP_PORT=$sftp_port
export CLIPSHARE_TEST_SFTP_USER=clipshare
export CLIPSHARE_TEST_SFTP_PASS=sftp-secret
export CLIPSHARE_TEST_SFTP_HOST_KEY_FILE=$DIR/sftp_host_key.pub
ENV
}

service_command "$@"
