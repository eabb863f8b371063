#!/usr/bin/env bash
# Set everything up, then run the `os` suite headless with the offline reference model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
out=runs/demo-$(date +%Y%m%d-%H%M%S)
# In a terminal the run shows a live view; into a log it prints only totals (not a line per task).
progress=auto; [[ -t 1 ]] || progress=totals
exec .venv/bin/deskact run task_suites/os --model reference --workers 2 --out "$out" --progress "$progress" "$@"
