#!/usr/bin/env bash
# Runs Vitest files with the whole machine's clock moved to chosen instants (libfaketime, Debian
# package `faketime`): Node and the PostgreSQL it starts see the same shifted time, so a test that
# reads the wall clock fails here instead of on some evening in CI.
#   scripts/test-at.sh [vitest files…]      (default: the mailings tests)
# Instants (UTC): TEST_AT="2026-11-24 19:59:00;…" — default 00:30, 09:00, 22:59 MSK, a month end
# and a year end.
set -euo pipefail
command -v faketime >/dev/null || { echo "Нужен пакет faketime (apt-get install -y faketime)" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(apps/api/test/mailings*.test.ts)
IFS=';' read -r -a instants <<<"${TEST_AT:-2026-11-23 21:30:00;2026-11-25 06:00:00;2026-11-24 19:59:00;2026-11-30 20:59:00;2026-12-31 21:00:30}"
rc=0
for t in "${instants[@]}"; do
  off=$(( $(date -u -d "$t" +%s) - $(date -u +%s) ))
  [ "$off" -ge 0 ] && off="+$off"
  echo "=== $t UTC (сдвиг $off с)"
  # An offset, not an absolute start: every process (Node, the PostgreSQL it spawns) agrees.
  faketime -f "$off" npx vitest run "${files[@]}" || rc=1
done
exit $rc
