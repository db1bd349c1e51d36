#!/usr/bin/env bash
# WebDAV conformance: runs litmus (Debian package; suites basic, copymove,
# props, locks, http) against /dav/<mount>/ of a built ClipShare, once on a
# LOCAL mount and once on an S3 mount (the test S3 server from
# scripts/test-services, via CLIPSHARE_TEST_S3_*).
#
# Expects `npm run build` to have run (test-all.sh does). Starts
# server/dist/main.js on a free port with a throwaway DATA_DIR, creates the
# mounts through the API, prints litmus's summary lines per mount and one line
#   litmus: N passed, M failed
# adding up every suite, then stops its server. Exits non-zero when any test
# failed or something could not run. Without CLIPSHARE_TEST_S3_* the S3 run is
# skipped, unless CLIPSHARE_REQUIRE_SERVICES=1 (then it is an error).
# CLIPSHARE_SERVER_JS runs another build of the server instead.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1

SERVER_JS=${CLIPSHARE_SERVER_JS:-server/dist/main.js}
if [ ! -f "$SERVER_JS" ]; then
  echo "$SERVER_JS is missing: run npm run build first"
  exit 1
fi
if ! command -v litmus >/dev/null; then
  echo "litmus is not installed (apt-get install litmus)"
  exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/clipshare-litmus.XXXXXX")
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
BASE="http://127.0.0.1:$PORT"
DAV_USER=admin
DAV_PASS="litmus-$(node -e 'console.log(require("crypto").randomBytes(9).toString("hex"))')"

PORT=$PORT HOST=127.0.0.1 DATA_DIR="$WORK/data" ADMIN_USERNAME=$DAV_USER ADMIN_PASSWORD=$DAV_PASS \
  LOG_LEVEL=warn WEB_DIST_DIR="$WORK/no-web" node "$SERVER_JS" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

for _ in $(seq 1 100); do
  if curl -sf "$BASE/api/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
  sleep 0.2
done
if ! curl -sf "$BASE/api/health" >/dev/null 2>&1; then
  echo "ClipShare did not start; its log:"
  cat "$WORK/server.log"
  exit 1
fi

# Mounts through the API: LOCAL on the default storage, S3 on the test bucket (own folder per run).
# Both stream GETs through the server (native_proxy): litmus does not follow redirects.
MOUNTS=$(BASE=$BASE DAV_USER=$DAV_USER DAV_PASS=$DAV_PASS node --input-type=module - <<'JS'
const { BASE, DAV_USER, DAV_PASS } = process.env;
const call = async (method, path, token, body) => {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
};
const { token } = await call("POST", "/api/admin/login", undefined, { username: DAV_USER, password: DAV_PASS });
const configs = await call("GET", "/api/s3-configs", token);
const local = configs.find((c) => c.storage_type === "LOCAL");
const mounts = [];
const mount = async (name, storage_type, storage_config_id) => {
  await call("POST", "/api/admin/mounts", token, {
    name, storage_type, storage_config_id, mount_path: `/${name}`, webdav_policy: "native_proxy", cache_ttl: 0,
  });
  mounts.push(`${storage_type}:${name}`);
};
await mount("litmus-local", "LOCAL", local.id);
// The one S3 test-config body the benchmarks use too; null without the test S3 service.
const { testS3ConfigBody } = await import(`${process.cwd()}/scripts/bench/server-process.mjs`);
const s3Body = testS3ConfigBody("litmus");
if (s3Body) {
  const s3 = await call("POST", "/api/s3-configs", token, { ...s3Body, name: "litmus S3", is_public: true });
  await mount("litmus-s3", "S3", s3.id);
}
console.log(mounts.join(" "));
JS
) || {
  echo "Could not create the mounts; server log:"
  cat "$WORK/server.log"
  exit 1
}

TOTAL_PASSED=0
TOTAL_FAILED=0
STATUS=0
SUMMARY=()

run_litmus() {
  local label=$1 mount=$2 log="$WORK/litmus-$2.log" rc=0
  echo "== litmus on the $label mount: $BASE/dav/$mount/"
  (cd "$WORK" && litmus "$BASE/dav/$mount/" "$DAV_USER" "$DAV_PASS") >"$log" 2>&1 || rc=$?
  local lines
  lines=$(grep -E "^<- summary for" "$log" || true)
  if [ -z "$lines" ]; then
    cat "$log"
    echo "$label: litmus produced no summary (exit $rc)"
    TOTAL_FAILED=$((TOTAL_FAILED + 1))
    STATUS=1
    return
  fi
  # Show the failing tests' lines in full, then the per-suite summaries.
  grep -E "FAIL|WARNING" "$log" | sed "s/^/$label: /" || true
  local line passed failed
  while IFS= read -r line; do
    SUMMARY+=("$label: $line")
    passed=$(sed -nE 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\1/p' <<<"$line")
    failed=$(sed -nE 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\2/p' <<<"$line")
    TOTAL_PASSED=$((TOTAL_PASSED + ${passed:-0}))
    TOTAL_FAILED=$((TOTAL_FAILED + ${failed:-0}))
    if [ "${failed:-1}" != 0 ]; then STATUS=1; fi
  done <<<"$lines"
  local suites
  suites=$(wc -l <<<"$lines")
  if [ "$suites" -lt 5 ]; then
    echo "$label: only $suites of 5 suites reported"
    TOTAL_FAILED=$((TOTAL_FAILED + 1))
    STATUS=1
  fi
  if [ "$rc" != 0 ]; then STATUS=1; fi
}

for entry in $MOUNTS; do
  run_litmus "${entry%%:*}" "${entry#*:}"
done
if [[ " $MOUNTS " != *" S3:"* ]]; then
  if [ "${CLIPSHARE_REQUIRE_SERVICES:-}" = 1 ]; then
    echo "S3: CLIPSHARE_TEST_S3_* is not set; start scripts/test-services/start.sh"
    TOTAL_FAILED=$((TOTAL_FAILED + 1))
    STATUS=1
  else
    echo "S3: skipped (CLIPSHARE_TEST_S3_* is not set)"
  fi
fi

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  echo "The server died during the run; its log:"
  cat "$WORK/server.log"
  STATUS=1
elif grep -q '"level":50' "$WORK/server.log"; then
  echo "The server logged errors:"
  grep '"level":50' "$WORK/server.log" | head -20
fi

echo
printf '%s\n' "${SUMMARY[@]}"
echo "litmus: $TOTAL_PASSED passed, $TOTAL_FAILED failed"
exit "$STATUS"
