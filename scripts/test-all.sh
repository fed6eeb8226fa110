#!/usr/bin/env bash
# make test: the browser walks run beside the Go and web tests. The walks wait on
# the browser and the server part of the time; the Go and web tests run niced in
# those gaps, so they never slow a walk into a timeout. The walks' output streams;
# the Go and web output follows as one block when those are done.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
make --no-print-directory test-e2e &
e2e=$!
nice -n 15 make --no-print-directory test-go test-web >"$log" 2>&1
unit=$?
printf '\n==== Go and web tests (exit %s) ====\n' "$unit"
cat "$log"
rm -f "$log"
printf '==== end of the Go and web tests ====\n\n'
wait "$e2e"
browser=$?
printf '\nGo and web tests: exit %s; browser walks: exit %s\n' "$unit" "$browser"
[ "$unit" -eq 0 ] && [ "$browser" -eq 0 ]
