#!/usr/bin/env bash
# Set everything up, then run the whole test suite (no API keys, no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q "$@"
