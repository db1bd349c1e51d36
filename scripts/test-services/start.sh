#!/usr/bin/env bash
# Starts the ClipShare test services (PostgreSQL, Swift's S3 API, WebDAV and
# SFTP through rclone, FTP and FTPS through pure-ftpd) and writes
# .tmp/services.env with the variables the test suites read:
#   source .tmp/services.env
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/scripts/test-services"
ENV_FILE="$ROOT/.tmp/services.env"
BUCKET=clipshare-test

mkdir -p "$ROOT/.tmp"
rm -f "$ENV_FILE"

# Start both at once; on failure stop whatever did start.
started=0
cleanup_on_error() {
  if [ "$started" = 0 ]; then
    bash "$HERE/stop.sh" >/dev/null 2>&1 || true
  fi
}
trap cleanup_on_error EXIT

bash "$HERE/postgres.sh" start &
pg_job=$!
bash "$HERE/swift.sh" start &
swift_job=$!
bash "$HERE/rclone.sh" start &
rclone_job=$!
bash "$HERE/ftp.sh" start &
ftp_job=$!
pg_rc=0
swift_rc=0
rclone_rc=0
ftp_rc=0
wait "$pg_job" || pg_rc=$?
wait "$swift_job" || swift_rc=$?
wait "$rclone_job" || rclone_rc=$?
wait "$ftp_job" || ftp_rc=$?
if [ "$pg_rc" != 0 ] || [ "$swift_rc" != 0 ] || [ "$rclone_rc" != 0 ] || [ "$ftp_rc" != 0 ]; then
  echo "test services: start failed (postgres=$pg_rc, swift=$swift_rc, rclone=$rclone_rc, ftp=$ftp_rc)" >&2
  exit 1
fi

bash "$HERE/swift.sh" create-bucket "$BUCKET"

pg_url=$(bash "$HERE/postgres.sh" url)
s3_endpoint=$(bash "$HERE/swift.sh" endpoint)
remote_env=$(bash "$HERE/rclone.sh" env; bash "$HERE/ftp.sh" env)
# Every loopback storage server ClipShare may reach: host:port of each.
remote_hosts=$(
  eval "$remote_env"
  echo "${CLIPSHARE_TEST_WEBDAV_URL#http://}" | sed 's#/$##'
  echo "127.0.0.1:$CLIPSHARE_TEST_SFTP_PORT,127.0.0.1:$CLIPSHARE_TEST_FTP_PORT,127.0.0.1:$CLIPSHARE_TEST_FTPS_PORT"
)
cat >"$ENV_FILE.new" <<ENV
export CLIPSHARE_TEST_PG_URL=$pg_url
export CLIPSHARE_TEST_S3_ENDPOINT=$s3_endpoint
export CLIPSHARE_TEST_S3_REGION=us-east-1
export CLIPSHARE_TEST_S3_ACCESS_KEY=test:tester
export CLIPSHARE_TEST_S3_SECRET_KEY=testing
export CLIPSHARE_TEST_S3_BUCKET=$BUCKET
$remote_env
# The test storage servers listen on loopback: ClipShare reaches them through the allow-list, as a LAN deployment would.
export STORAGE_ENDPOINT_ALLOW=${s3_endpoint#http://},$(echo "$remote_hosts" | paste -sd, -)
ENV
mv "$ENV_FILE.new" "$ENV_FILE"
started=1
echo "test services: ready; variables in .tmp/services.env"
