#!/usr/bin/env bash
# make test: the browser walks run beside the Go and web tests. The walks mostly
# wait (on the browser, the server, the network) and use about a quarter of two
# cores, so the whole run takes about as long as the walks alone. Their output
# streams; the Go and web output follows as one block when those are done.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
make --no-print-directory test-e2e &
e2e=$!
{ make --no-print-directory test-go && make --no-print-directory test-web; } >"$log" 2>&1
unit=$?
printf '\n==== Go and web tests (exit %s) ====\n' "$unit"
cat "$log"
rm -f "$log"
printf '==== end of the Go and web tests ====\n\n'
wait "$e2e"
browser=$?
printf '\nGo and web tests: exit %s; browser walks: exit %s\n' "$unit" "$browser"
[ "$unit" -eq 0 ] && [ "$browser" -eq 0 ]
