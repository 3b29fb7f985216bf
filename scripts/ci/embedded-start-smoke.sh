#!/usr/bin/env bash
# Starts `npm start` exactly as a newcomer would (no DATABASE_URL), waits for the seeded services on
# /services, then stops it with Ctrl-C (SIGINT) and checks that it and its database exited cleanly.
set -euo pipefail

port=3300
data_dir="$(mktemp -d)/postgres"  # a private (0700) folder, as a clone under one would be
log="$(mktemp)"

env -u DATABASE_URL -u TEST_DATABASE_URL PORT=$port EMBEDDED_PG_DIR="$data_dir" EMBEDDED_PG_PORT=25440 \
  setsid npm start >"$log" 2>&1 &
pid=$!

fail() { echo "FAIL: $*"; cat "$log"; kill -KILL -- "-$pid" 2>/dev/null || true; exit 1; }

started=$(date +%s)
until curl -fsS "http://localhost:$port/services" -o /tmp/smoke-services.html 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || fail "npm start exited before serving"
  [ $(( $(date +%s) - started )) -lt 180 ] || fail "no answer on port $port within 180 s"
  sleep 0.5
done
echo "First /services answer after $(( $(date +%s) - started )) s"

grep -q 'Equity Premium' /tmp/smoke-services.html || fail "/services does not list the seeded services"
grep -q 'Rs. 2,999 for 30 Days' /tmp/smoke-services.html || fail "/services has no price line"
grep -q 'embedded PostgreSQL' "$log" || fail "the log does not say the embedded database is used"
grep -q 'Demo mode' "$log" || fail "the log does not say demo mode"
grep -q '127.0.0.1: this machine only' "$log" || fail "the log does not say demo mode listens on loopback only"
# Demo mode shows every sign-in code: it must not answer on the machine's network address.
other_address=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^127\.' | grep -m1 '\.' || true)
if [ -n "$other_address" ] && curl -fsS -m 5 "http://$other_address:$port/healthz" -o /dev/null 2>/dev/null; then
  fail "demo mode answered on $other_address, not only on loopback"
fi
[ "$(stat -c %a "$(dirname "$data_dir")/demo-secret")" = 600 ] || fail "no demo secret (mode 600) beside the data folder"

kill -INT -- "-$pid"
for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
kill -0 "$pid" 2>/dev/null && fail "npm start did not stop within 30 s of Ctrl-C"
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 130 ] || fail "npm start exited with status $status after Ctrl-C"
grep -Eq 'exiting without waiting|Shutdown failed|longer than' "$log" && fail "the shutdown was cut short"
if pgrep -f "postgres -D $data_dir" >/dev/null; then fail "the embedded PostgreSQL is still running"; fi
[ ! -f "$data_dir/postmaster.pid" ] || fail "the embedded PostgreSQL did not shut down cleanly (postmaster.pid left)"
echo "PASS: npm start served the seeded services from the embedded PostgreSQL and stopped cleanly"
# sed reads to the end: with head, grep could be killed by SIGPIPE and fail this step (pipefail) after it passed.
grep -v 'nodedir' "$log" | sed -n '1,20p'
