#!/usr/bin/env bash
# Set everything up, then run the `os` suite headless with the offline reference model.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
out=runs/demo-$(date +%Y%m%d-%H%M%S)
exec .venv/bin/deskact run task_suites/os --model reference --workers 2 --out "$out" "$@"
