#!/usr/bin/env bash
# ClipShare's complete test run (`npm test`, and what CI runs through .ci/run).
#
#   1. system packages (scripts/install-system-deps.sh) and npm dependencies
#   2. typecheck, lint, build
#   3. test services (PostgreSQL + S3 via scripts/test-services/start.sh),
#      stopped again whatever happens
#   4. test runners, all of them even when one fails:
#        vitest (SQLite + local storage, S3 suites against the test S3),
#        vitest on server/ again with PostgreSQL (with the two-instance scale-out
#        suite behind nginx), Playwright end-to-end tests
#        (when web/playwright.config.ts exists), WebDAV litmus
#        (when scripts/test-litmus.sh exists)
#   5. a summary naming every failed test (a browser test that only passed on
#      its one retry counts as failed unless web/e2e/quarantine.txt lists it with
#      its reason), ending with the line "Total: N passed, M failed"
#
# N and M add up the tests of every runner; a failed step that reports no test
# counts of its own (typecheck, a runner that crashed or timed out, ...) counts
# as one failed check. The exit status is non-zero when any step failed.
#
# Logs and machine-readable results go to .tmp/test-logs and .tmp/test-results.
#
# Environment:
#   CLIPSHARE_SKIP_INSTALL=1      skip the system-package and npm steps
#   CLIPSHARE_FORCE_INSTALL=1     run `npm ci` even if node_modules looks current
#                                 (it always runs on CI and when node_modules is missing)
#   CLIPSHARE_STEP_TIMEOUT=SECS   time limit of each test runner (default 1200)
#   CLIPSHARE_E2E_SHARDS=N        browser tests in N steps of their own (default 2)
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1

LOG_DIR="$ROOT/.tmp/test-logs"
RESULT_DIR="$ROOT/.tmp/test-results"
STEP_TIMEOUT=${CLIPSHARE_STEP_TIMEOUT:-1200}
E2E_SHARDS=${CLIPSHARE_E2E_SHARDS:-2}
rm -rf "$LOG_DIR" "$RESULT_DIR"
mkdir -p "$LOG_DIR" "$RESULT_DIR"

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export NO_UPDATE_NOTIFIER=1
export npm_config_update_notifier=false
export npm_config_fund=false
export npm_config_audit=false
# Plain text (no colour codes) in logs and CI unless a terminal is attached.
if [ ! -t 1 ] && [ -z "${FORCE_COLOR:-}" ]; then export NO_COLOR=1; fi

TOTAL_PASSED=0
TOTAL_FAILED=0
STEP_LINES=()
# Names of failed and flaky tests, repeated in the summary so that the end of
# the output alone says what broke.
PROBLEM_LINES=()
ANY_FAILED=0
START_TIME=$SECONDS

if [ -t 1 ]; then BOLD=$'\e[1m' RED=$'\e[31m' GREEN=$'\e[32m' RESET=$'\e[0m'; else BOLD='' RED='' GREEN='' RESET=''; fi

heading() { printf '\n%s==> %s%s\n' "$BOLD" "$1" "$RESET"; }

# record NAME OK(0/1) PASSED FAILED SECONDS [NOTE]
record() {
  local name=$1 ok=$2 passed=$3 failed=$4 secs=$5 note=${6:-}
  TOTAL_PASSED=$((TOTAL_PASSED + passed))
  TOTAL_FAILED=$((TOTAL_FAILED + failed))
  local status
  if [ "$ok" = 0 ]; then status="${GREEN}ok${RESET}  "; else status="${RED}FAIL${RESET}"; ANY_FAILED=1; fi
  local counts=""
  if [ "$passed" != 0 ] || [ "$failed" != 0 ]; then counts=" ($passed passed, $failed failed)"; fi
  STEP_LINES+=("$(printf '  %s %-28s %4ss%s%s' "$status" "$name" "$secs" "$counts" "${note:+  $note}")")
}

print_summary() {
  heading "Summary ($((SECONDS - START_TIME)) s; logs in .tmp/test-logs)"
  local line
  for line in "${STEP_LINES[@]}"; do printf '%s\n' "$line"; done
  if [ "${#PROBLEM_LINES[@]}" -gt 0 ]; then
    printf '\n'
    for line in "${PROBLEM_LINES[@]}"; do printf '  %s\n' "$line"; done
  fi
  printf '\nTotal: %s passed, %s failed\n' "$TOTAL_PASSED" "$TOTAL_FAILED"
}

# A non-test step (its output goes to a log; the tail is shown on failure).
# check_step NAME LOGNAME COMMAND...
check_step() {
  local name=$1 log="$LOG_DIR/$2.log" t0=$SECONDS rc=0
  shift 2
  heading "$name"
  "$@" >"$log" 2>&1 || rc=$?
  if [ "$rc" = 0 ]; then
    echo "ok ($((SECONDS - t0)) s)"
    record "$name" 0 0 0 $((SECONDS - t0))
  else
    tail -n 60 "$log"
    echo "${RED}$name failed (exit $rc); full log: ${log#"$ROOT"/}${RESET}"
    record "$name" 1 0 1 $((SECONDS - t0))
  fi
  return "$rc"
}

# Prints "passed failed" from a vitest or Playwright JSON report, then one line
# per failed or flaky test ("failed: file › title: first error line"); nothing
# if the report is unreadable.
count_results() {
  node --input-type=module - "$1" "$2" <<'JS' 2>/dev/null
import { readFileSync } from "node:fs";
const [kind, file] = process.argv.slice(2);
const r = JSON.parse(readFileSync(file, "utf8"));
const firstLine = (text) => String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "").trim().split("\n")[0].slice(0, 200);
const problems = [];
let passed = 0;
let failed = 0;
if (kind === "vitest") {
  passed = r.numPassedTests ?? 0;
  failed = r.numFailedTests ?? 0;
  for (const f of r.testResults ?? []) {
    const where = f.name.replace(`${process.cwd()}/`, "");
    const failures = (f.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failures) problems.push(`failed: ${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    // A test file that fails before running any test (import error, failing hook)
    // has no failed test of its own: count the file.
    if (f.status === "failed" && failures.length === 0) {
      failed += 1;
      problems.push(`failed: ${where}: ${firstLine(f.message)}`);
    }
  }
} else {
  // A test that passed only on its retry fails the run, unless web/e2e/quarantine.txt lists it
  // (one "file:line title" or title per line, with its reason after " # ").
  let quarantine = [];
  try {
    quarantine = readFileSync("web/e2e/quarantine.txt", "utf8")
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter((line) => line && !line.startsWith("#"));
  } catch {}
  const s = r.stats ?? {};
  passed = s.expected ?? 0;
  failed = s.unexpected ?? 0;
  failed += (r.errors ?? []).length > 0 && failed === 0 ? 1 : 0;
  for (const e of r.errors ?? []) problems.push(`failed: ${firstLine(e.message)}`);
  const walk = (suite, path) => {
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        const error = (t.results ?? []).map((x) => x.error?.message).find(Boolean);
        let kindWord = "failed";
        if (t.status === "flaky") {
          const name = `${spec.file}:${spec.line} ${spec.title}`;
          const quarantined = quarantine.some((q) => name.includes(q) || spec.title === q);
          if (quarantined) passed++;
          else failed++;
          kindWord = quarantined ? "flaky, quarantined (passed on retry)" : "failed: flaky (passed only on retry)";
        }
        problems.push(`${kindWord}: ${[...path, spec.title].filter(Boolean).join(" › ")}:${spec.line}: ${firstLine(error)}`);
      }
    }
  };
  for (const suite of r.suites ?? []) walk(suite, [suite.title]);
  problems.sort((a, b) => Number(b.startsWith("failed")) - Number(a.startsWith("failed")));
  for (const q of quarantine) problems.push(`quarantined: ${q}`);
}
console.log(`${passed} ${failed}`);
for (const p of problems.slice(0, 30)) console.log(p);
JS
}

# A test runner: output shown live and saved to a log; counts read from its JSON report.
# test_step NAME LOGNAME KIND JSONFILE COMMAND...
test_step() {
  local name=$1 log="$LOG_DIR/$2.log" kind=$3 json=$4 t0=$SECONDS rc=0
  shift 4
  heading "$name"
  rm -f "$json"
  timeout -k 30 "$STEP_TIMEOUT" "$@" </dev/null 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  local secs=$((SECONDS - t0)) counts passed=0 failed=0 note=""
  if [ -s "$json" ] && counts=$(count_results "$kind" "$json") && [ -n "$counts" ]; then
    read -r passed failed <<<"$(head -n 1 <<<"$counts")"
    local problem
    while IFS= read -r problem; do
      [ -n "$problem" ] && PROBLEM_LINES+=("$name: $problem")
    done < <(tail -n +2 <<<"$counts")
  fi
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then note="timed out after ${STEP_TIMEOUT}s"; fi
  # A report with failures fails the step even when the runner exited 0 (a test that passed only on its retry).
  if [ "$rc" = 0 ] && [ "$failed" != 0 ]; then
    rc=1
    note="failures in the report"
  fi
  if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
    # Failed without a failing test in its report (crash, time-out, no tests found).
    failed=1
    [ -n "$note" ] || note="exit $rc"
  fi
  if [ "$rc" = 0 ] && [ "$passed" = 0 ] && [ "$failed" = 0 ]; then note="no test counts found"; fi
  record "$name" "$([ "$rc" = 0 ] && echo 0 || echo 1)" "$passed" "$failed" "$secs" "$note"
}

# ---------------------------------------------------------------- dependencies

install_node_modules() {
  if [ -z "${CI:-}" ] && [ -z "${CLIPSHARE_FORCE_INSTALL:-}" ] && [ -f node_modules/.package-lock.json ] &&
    ! [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "node_modules is newer than package-lock.json: not reinstalling (CLIPSHARE_FORCE_INSTALL=1 forces it)"
    return 0
  fi
  local rc=0 ci_log="$LOG_DIR/npm-ci.log"
  npm ci --no-audit --no-fund >"$ci_log" 2>&1 || rc=$?
  cat "$ci_log"
  if [ "$rc" != 0 ]; then
    # The registry this project installs from lacks some platform-specific
    # optional packages (e.g. Biome's binaries for other systems), which npm ci
    # then reports as missing from the lockfile with an empty version. Only in
    # exactly that case, install from the lockfile with `npm install --no-save`
    # (it leaves package-lock.json untouched); any other error stays fatal.
    local problems
    problems=$(grep -E '^npm error (Missing|Invalid): ' "$ci_log" || true)
    if [ -n "$problems" ] && ! grep -vqE '^npm error Missing: [^ ]+@ from lock file$' <<<"$problems"; then
      echo "npm ci: only unavailable optional packages are missing; installing with npm install --no-save" |
        tee "$LOG_DIR/npm-fallback.txt"
      npm install --no-save --no-audit --no-fund || return 1
    else
      return "$rc"
    fi
  fi
  # better-sqlite3 is a native module; its build script must have run.
  if ! (cd server && node -e "new (require('better-sqlite3'))(':memory:').close()"); then
    echo "better-sqlite3 did not load; rebuilding it"
    npm rebuild better-sqlite3 --foreground-scripts || return 1
    (cd server && node -e "new (require('better-sqlite3'))(':memory:').close()") || return 1
  fi
}

if [ -z "${CLIPSHARE_SKIP_INSTALL:-}" ]; then
  if ! check_step "system packages" system-deps bash scripts/install-system-deps.sh; then
    print_summary
    exit 1
  fi
  if ! check_step "npm dependencies" npm install_node_modules; then
    print_summary
    exit 1
  fi
  if [ -f "$LOG_DIR/npm-fallback.txt" ]; then cat "$LOG_DIR/npm-fallback.txt"; fi
fi

# ------------------------------------------------------- static checks, build

check_step "typecheck" typecheck npm run typecheck
check_step "lint" lint npm run lint
check_step "build" build npm run build

# --------------------------------------------------------------- test services

stop_services() {
  bash "$ROOT/scripts/test-services/stop.sh" >"$LOG_DIR/services-stop.log" 2>&1 || true
}
trap stop_services EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! check_step "test services" services bash scripts/test-services/start.sh; then
  print_summary
  exit 1
fi
# shellcheck disable=SC1091
. "$ROOT/.tmp/services.env"

# ------------------------------------------------------------------ test runs

export CLIPSHARE_REQUIRE_SERVICES=1

# The scale-out suite (server/test/scale-out) always runs its instances on PostgreSQL: once, below.
test_step "vitest (SQLite)" vitest-sqlite vitest "$RESULT_DIR/vitest-sqlite.json" \
  npx --no vitest run --exclude 'server/test/scale-out/**' --reporter=default --reporter=json --outputFile.json="$RESULT_DIR/vitest-sqlite.json"

test_step "vitest server (PostgreSQL)" vitest-postgres vitest "$RESULT_DIR/vitest-postgres.json" \
  env CLIPSHARE_TEST_DB=postgres \
  npx --no vitest run server --reporter=default --reporter=json --outputFile.json="$RESULT_DIR/vitest-postgres.json"

# The browser tests run in E2E_SHARDS steps, one after another (each with its own server and its
# own time limit): one worker each, because the machine has two cores and the tests of a step share
# one server.
if [ -f web/playwright.config.ts ]; then
  for ((shard = 1; shard <= E2E_SHARDS; shard++)); do
    test_step "playwright ($shard/$E2E_SHARDS)" "playwright-$shard" playwright "$RESULT_DIR/playwright-$shard.json" \
      env PLAYWRIGHT_JSON_OUTPUT_FILE="$RESULT_DIR/playwright-$shard.json" PLAYWRIGHT_HTML_OPEN=never \
      PLAYWRIGHT_HTML_OUTPUT_DIR="$ROOT/web/playwright-report/$shard" \
      npx --no playwright test -c web/playwright.config.ts --reporter=list,json,html --retries=1 \
      --shard="$shard/$E2E_SHARDS"
  done
fi

if [ -f scripts/test-litmus.sh ]; then
  heading "WebDAV (litmus)"
  t0=$SECONDS
  rc=0
  timeout -k 30 "$STEP_TIMEOUT" bash scripts/test-litmus.sh </dev/null 2>&1 | tee "$LOG_DIR/litmus.log"
  rc=${PIPESTATUS[0]}
  # The script ends with "litmus: N passed, M failed", the sum over its suites and mounts.
  counts=$(sed -nE 's/^litmus: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$LOG_DIR/litmus.log" | tail -n 1)
  passed=0 failed=0
  if [ -n "$counts" ]; then read -r passed failed <<<"$counts"; fi
  if [ "$rc" = 0 ]; then
    record "WebDAV (litmus)" 0 "$passed" "$failed" $((SECONDS - t0))
  else
    [ "$failed" != 0 ] || failed=1
    record "WebDAV (litmus)" 1 "$passed" "$failed" $((SECONDS - t0)) "exit $rc"
  fi
fi

print_summary
exit "$ANY_FAILED"
