#!/usr/bin/env bash
# Idempotent setup on Debian/Ubuntu: system packages (X server, window manager,
# apps, bubblewrap, Chromium for report tests) and a .venv with deskact installed.
# Usage: scripts/setup.sh [--no-apt]
set -euo pipefail
cd "$(dirname "$0")/.."

# apt and pip talk a lot; keep their output in a log and show it only if they fail.
LOG=${DESKACT_SETUP_LOG:-${TMPDIR:-/tmp}/deskact-setup.$$.log}
quiet() {
  if ! "$@" >>"$LOG" 2>&1; then
    echo "setup: failed: $*" >&2
    cat "$LOG" >&2
    trap - EXIT
    echo "setup: (log kept in $LOG)" >&2
    exit 1
  fi
}
: >"$LOG"
trap 'rm -f "$LOG"' EXIT

APT_PACKAGES=(
  xvfb openbox xdotool xterm mousepad x11-utils wmctrl xclip xsel x11vnc
  novnc websockify
  bubblewrap sudo
  libreoffice-calc libreoffice-writer libreoffice-impress
  libreoffice-gtk3 at-spi2-core
  chromium chromium-driver
  gimp vlc thunderbird thunar
  fonts-dejavu-core
  python3-lxml python3-cssselect
)

if [[ "${1:-}" != "--no-apt" ]] && command -v apt-get >/dev/null; then
  missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    echo "setup: installing ${missing[*]}"
    quiet $SUDO apt-get update -qq
    quiet $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

PY=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  if ! "$PY" -m venv .venv 2>/dev/null; then
    # Debian's python3 ships venv separately.
    rm -rf .venv
    SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    quiet $SUDO apt-get install -y -qq python3-venv
    "$PY" -m venv .venv
  fi
fi
# Reinstall only when the dependency list changed.
stamp=.venv/.deskact-installed
if [[ ! -f $stamp ]] || ! cmp -s pyproject.toml "$stamp"; then
  echo "setup: installing deskact and its dependencies into .venv"
  quiet .venv/bin/pip install -q --upgrade pip
  # all: every provider SDK and Ray (the tests use each; pip install . alone installs neither)
  quiet .venv/bin/pip install -q -e ".[dev,all]"
  cp pyproject.toml "$stamp"
fi
# The notebooks (and their tests) run on the venv's own kernel, named python3.
if [[ ! -f .venv/share/jupyter/kernels/python3/kernel.json ]]; then
  quiet .venv/bin/python -m ipykernel install --sys-prefix --name python3
fi
# OSWorld's own evaluators for the conformance tests (pytest -m conformance), in their own venv.
quiet bash scripts/setup_conformance.sh
