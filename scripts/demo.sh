#!/usr/bin/env bash
# The main job, end to end, on the embedded default (a SQLite file): index a real package
# from the package index, show what was found, and look up a real error from it.
set -euo pipefail
package="${1:-click==8.1.7}"
errdex=".venv/bin/errdex"
mkdir -p "$(dirname "${ERRDEX_DB}")"

echo "== errdex index ${package}  (downloaded, never installed or imported)"
"$errdex" index "$package"
project="${package%%==*}"
echo
echo "== errdex list --project ${project} --limit 12"
"$errdex" list --project "$project" --limit 12
echo
id=$("$errdex" list --project "$project" --json | .venv/bin/python -c '
import json, sys
sites = json.load(sys.stdin)
# the site with the most conditions and a message makes the richest page
best = max((s for s in sites if s["message"]), key=lambda s: (len(s["conditions"]), len(s["variants"])))
print(best["id"])')
echo "== errdex show ${id}"
"$errdex" show "$id"
