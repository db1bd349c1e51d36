#!/usr/bin/env bash
# Stops the ClipShare test services started by start.sh (only the processes it
# started, found through their pid files) and removes .tmp/services.env.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/scripts/test-services"

rc=0
bash "$HERE/swift.sh" stop &
swift_job=$!
bash "$HERE/rclone.sh" stop || rc=1
bash "$HERE/ftp.sh" stop || rc=1
bash "$HERE/postgres.sh" stop || rc=1
wait "$swift_job" || rc=1
rm -f "$ROOT/.tmp/services.env"
exit "$rc"
