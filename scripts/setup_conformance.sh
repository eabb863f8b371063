#!/usr/bin/env bash
# Idempotent: .venv-conformance holds OSWorld's published evaluators (desktop-env, without
# its ~60 declared dependencies: torch, cloud SDKs, playwright...) and only the libraries
# that the metric modules the conformance tests load import (table, docs, slides, general,
# vscode, utils), at desktop-env's own pins where it pins them. docs.py also imports easyocr
# and scikit-image (for OCR and colour distance, which no conformance test calls): the
# runner stubs them instead of installing torch. Tests: `pytest -m conformance`.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-conformance
PACKAGES=(
  "desktop-env==1.0.2"
)
LIBRARIES=(
  "numpy>=1.26,<2" "pandas>=2.2,<2.3" "Pillow~=11.0.0"
  python-docx python-pptx openpyxl odfpy lxml cssselect rapidfuzz
  xmltodict tldextract pdfplumber formulas PyYAML PyPDF2
)
stamp=$VENV/.conformance-installed
want="${PACKAGES[*]} ${LIBRARIES[*]}"
if [[ -f $stamp && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
PY=${PYTHON:-python3}
[[ -x $VENV/bin/python ]] || "$PY" -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check --no-deps "${PACKAGES[@]}"
"$VENV/bin/pip" install -q --disable-pip-version-check "${LIBRARIES[@]}"
echo "$want" >"$stamp"
