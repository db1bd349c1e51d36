#!/usr/bin/env bash
# Single-node OpenStack Swift with its S3 API (s3api) for ClipShare tests.
#   scripts/test-services/swift.sh start|stop|status|endpoint|create-bucket NAME
# Everything lives in .tmp/services/swift (recreated on every start).
#
#   S3 endpoint   http://127.0.0.1:PORT (path-style); PORT is the first free port
#                 from ${CLIPSHARE_TEST_S3_PORT:-18080} on, recorded in .tmp/services/swift/ports
#   region        us-east-1
#   credentials   access key "test:tester", secret "testing"
#   backends      object/container/account servers on 127.0.0.1, on the first
#                 free block of four ports from ${CLIPSHARE_TEST_SWIFT_PORT_BASE:-36210} on
#   multipart     parts may be as small as ${CLIPSHARE_TEST_S3_MIN_PART:-1} byte(s)
#   CORS          any origin may send presigned requests and read the ETag header
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR="$ROOT/.tmp/services/swift"
S3_PORT=${CLIPSHARE_TEST_S3_PORT:-18080}
BASE=${CLIPSHARE_TEST_SWIFT_PORT_BASE:-36210}
MIN_PART=${CLIPSHARE_TEST_S3_MIN_PART:-1}
RUN_USER=$(id -un)
SERVERS=(account container object proxy)
# Swift's own interpreter (a python3 earlier in PATH may lack the swift modules).
PY=/usr/bin/python3

# shellcheck source=ports.sh
. "$(dirname "${BASH_SOURCE[0]}")/ports.sh"

set_ports() {
  S3_PORT=$1
  OBJECT_PORT=$2
  CONTAINER_PORT=$(($2 + 1))
  ACCOUNT_PORT=$(($2 + 2))
  # Nothing listens here: tempauth insists on a memcache client, but a memcached
  # shared with other software could hand this throwaway cluster stale data.
  MEMCACHE_PORT=$(($2 + 3))
}

load_ports() {
  [ -f "$DIR/ports" ] || { echo "swift.sh: not started" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$DIR/ports"
  set_ports "$S3_PORT" "$OBJECT_PORT"
}

# Is the PID in $1 one of the servers started from this directory?
ours() {
  local pid=$1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$DIR/etc/"
}

do_stop() {
  local pids=() s pid
  for s in "${SERVERS[@]}"; do
    if [ -f "$DIR/run/$s.pid" ]; then
      pid=$(cat "$DIR/run/$s.pid")
      if ours "$pid"; then
        kill -TERM "$pid" 2>/dev/null || true
        pids+=("$pid")
      fi
      rm -f "$DIR/run/$s.pid"
    fi
  done
  [ ${#pids[@]} -eq 0 ] && return 0
  for _ in $(seq 1 50); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
}

write_configs() {
  local etc="$DIR/etc"
  cat >"$etc/swift.conf" <<CONF
[swift-hash]
swift_hash_path_prefix = clipshare-test-prefix
swift_hash_path_suffix = clipshare-test-suffix

[storage-policy:0]
name = standard
default = yes
CONF

  local kind port
  for kind in account container object; do
    case $kind in
      account) port=$ACCOUNT_PORT ;;
      container) port=$CONTAINER_PORT ;;
      object) port=$OBJECT_PORT ;;
    esac
    cat >"$etc/$kind-server.conf" <<CONF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $port
workers = 0
user = $RUN_USER
swift_dir = $etc
devices = $DIR/node
mount_check = false
disable_fallocate = true
fallocate_reserve = 0
log_name = $kind-server
log_level = WARNING

[pipeline:main]
pipeline = $kind-server

[app:$kind-server]
use = egg:swift#$kind
CONF
  done

  # One ring per server kind: partition power 8, one replica, one device.
  # Built in a single Python process (swift-ring-builder would need nine).
  "$PY" - "$etc" "$ACCOUNT_PORT" "$CONTAINER_PORT" "$OBJECT_PORT" <<'PY'
import sys
from swift.common.ring import RingBuilder
etc = sys.argv[1]
for kind, port in zip(("account", "container", "object"), sys.argv[2:5]):
    builder = RingBuilder(8, 1, 1)
    builder.add_dev({"id": 0, "region": 1, "zone": 1, "ip": "127.0.0.1", "port": int(port),
                     "device": "d1", "weight": 100})
    builder.rebalance()
    builder.get_ring().save(f"{etc}/{kind}.ring.gz")
    builder.save(f"{etc}/{kind}.builder")
PY

  cat >"$etc/proxy-server.conf" <<CONF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $S3_PORT
workers = 0
user = $RUN_USER
swift_dir = $etc
log_name = proxy-server
log_level = INFO

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk s3api tempauth copy slo dlo versioned_writes proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
# Browsers on other origins may use presigned URLs and read the ETag.
cors_allow_origin = *
cors_expose_headers = etag, x-amz-request-id, x-amz-version-id

[filter:s3api]
use = egg:swift#s3api
location = us-east-1
# Tiny multipart parts are allowed so tests stay small (real S3: 5 MiB).
min_segment_size = $MIN_PART
cors_preflight_allow_origin = *

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$MEMCACHE_PORT

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:gatekeeper]
use = egg:swift#gatekeeper

[filter:healthcheck]
use = egg:swift#healthcheck

[filter:proxy-logging]
use = egg:swift#proxy_logging

[filter:listing_formats]
use = egg:swift#listing_formats

[filter:bulk]
use = egg:swift#bulk

[filter:copy]
use = egg:swift#copy

[filter:slo]
use = egg:swift#slo

[filter:dlo]
use = egg:swift#dlo

[filter:versioned_writes]
use = egg:swift#versioned_writes
CONF
}

# s3_request METHOD PATH: one S3 request signed with AWS Signature V4, using
# only the Python standard library; succeeds on a 2xx answer (and, for a
# bucket PUT, when the bucket already exists and is ours).
s3_request() {
  "$PY" - "$S3_PORT" "$1" "$2" <<'PY'
import datetime, hashlib, hmac, sys, urllib.error, urllib.request
port, method, path = sys.argv[1:4]
host = f"127.0.0.1:{port}"
access, secret, region = "test:tester", "testing", "us-east-1"
now = datetime.datetime.now(datetime.timezone.utc)
amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
payload = hashlib.sha256(b"").hexdigest()
signed = "host;x-amz-content-sha256;x-amz-date"
canonical = "\n".join([method, path, "", f"host:{host}", f"x-amz-content-sha256:{payload}",
                       f"x-amz-date:{amz_date}", "", signed, payload])
scope = f"{day}/{region}/s3/aws4_request"
to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
key = ("AWS4" + secret).encode()
for part in (day, region, "s3", "aws4_request"):
    key = hmac.new(key, part.encode(), hashlib.sha256).digest()
signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
req = urllib.request.Request(f"http://{host}{path}", method=method, data=b"" if method == "PUT" else None,
    headers={"x-amz-date": amz_date, "x-amz-content-sha256": payload,
             "Authorization": f"AWS4-HMAC-SHA256 Credential={access}/{scope}, "
                              f"SignedHeaders={signed}, Signature={signature}"})
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
try:
    with opener.open(req, timeout=5) as res:
        sys.exit(0 if 200 <= res.status < 300 else 1)
except urllib.error.HTTPError as e:
    body = e.read().decode(errors="replace")
    sys.exit(0 if "BucketAlreadyOwnedByYou" in body else 1)
except Exception:
    sys.exit(1)
PY
}

do_start() {
  command -v swift-proxy-server >/dev/null || {
    echo "swift.sh: OpenStack Swift is not installed (run scripts/install-system-deps.sh)" >&2
    exit 1
  }
  do_stop
  local s3 base
  s3=$(first_free "$S3_PORT" 1)
  base=$(first_free "$BASE" 4)
  # The backend block must not contain the S3 port.
  if [ "$s3" -ge "$base" ] && [ "$s3" -lt $((base + 4)) ]; then base=$(first_free $((base + 4)) 4); fi
  set_ports "$s3" "$base"
  rm -rf "$DIR"
  mkdir -p "$DIR/etc" "$DIR/node/d1" "$DIR/run" "$DIR/log"
  printf 'S3_PORT=%s\nOBJECT_PORT=%s\n' "$S3_PORT" "$OBJECT_PORT" >"$DIR/ports"
  write_configs

  local s
  for s in "${SERVERS[@]}"; do
    # -v copies the servers' log lines to stderr, i.e. to the log file here.
    setsid "swift-$s-server" "$DIR/etc/$s-server.conf" -v </dev/null >"$DIR/log/$s.log" 2>&1 &
    echo $! >"$DIR/run/$s.pid"
  done

  # Wait (up to ~30 s) until a signed S3 request succeeds.
  local i
  for i in $(seq 1 300); do
    for s in "${SERVERS[@]}"; do
      if ! kill -0 "$(cat "$DIR/run/$s.pid")" 2>/dev/null; then
        echo "swift.sh: swift-$s-server exited during start-up; its log follows" >&2
        tail -n 30 "$DIR/log/$s.log" >&2 || true
        do_stop
        exit 1
      fi
    done
    if port_busy "$ACCOUNT_PORT" && port_busy "$CONTAINER_PORT" && port_busy "$OBJECT_PORT" &&
      port_busy "$S3_PORT" && s3_request GET /; then
      echo "swift (S3): http://127.0.0.1:$S3_PORT (pids $(cat "$DIR"/run/*.pid | tr '\n' ' '| sed 's/ $//'))"
      return 0
    fi
    sleep 0.1
  done
  echo "swift.sh: the S3 endpoint did not become ready; logs are in $DIR/log" >&2
  do_stop
  exit 1
}

case "${1:-}" in
  start) do_start ;;
  stop) do_stop ;;
  status)
    if [ -f "$DIR/run/proxy.pid" ] && ours "$(cat "$DIR/run/proxy.pid")" && load_ports; then
      echo "swift (S3): running on http://127.0.0.1:$S3_PORT"
    else
      echo "swift (S3): not running"
      exit 1
    fi
    ;;
  endpoint)
    load_ports
    echo "http://127.0.0.1:$S3_PORT"
    ;;
  create-bucket)
    [ -n "${2:-}" ] || { echo "usage: $0 create-bucket NAME" >&2; exit 2; }
    load_ports
    s3_request PUT "/$2" || { echo "swift.sh: could not create bucket $2" >&2; exit 1; }
    ;;
  *)
    echo "usage: $0 start|stop|status|endpoint|create-bucket NAME" >&2
    exit 2
    ;;
esac
