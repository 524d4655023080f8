#!/usr/bin/env bash
# The main job, end to end, on the embedded default (a SQLite file): index a real package
# from the package index, look up a real traceback from it, and print the error's page.
set -euo pipefail
package="${1:-requests==2.28.1}"
paste="${2:-scripts/demo/requests-traceback.txt}"
errdex=".venv/bin/errdex"
mkdir -p "$(dirname "${ERRDEX_DB}")"

echo "== errdex index ${package}   (the archive downloaded from the package index: never built, installed or imported)"
"$errdex" index "$package"
echo
echo "== a real traceback, as a user pasted it in a public issue (PaddlePaddle/PaddleNLP#3250):"
cat "$paste"
echo
echo "== errdex lookup - < ${paste}"
"$errdex" lookup - < "$paste"
