#!/usr/bin/env bash
# Idempotent: .venv-conformance holds OSWorld's published evaluators (desktop-env, without
# its ~60 declared dependencies: torch, cloud SDKs, playwright...) and only the libraries
# that the metric modules the conformance tests load import (table, docs, slides, general,
# vscode, vlc, utils), at desktop-env's own pins where it pins them. docs.py also imports
# easyocr (OCR, which no conformance test calls) and vlc.py's audio libraries: the runner stubs
# those instead of installing torch and librosa. Tests: `pytest -m conformance`.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-conformance
PACKAGES=(
  "desktop-env==1.0.2"
)
LIBRARIES=(
  "numpy>=1.26,<2" "pandas>=2.2,<2.3" "Pillow~=11.0.0"
  python-docx python-pptx openpyxl odfpy lxml cssselect rapidfuzz
  xmltodict tldextract pdfplumber formulas PyYAML PyPDF2 scikit-image
  mutagen  # others.py (check_mp3_meta, compare_epub) imports it at its top
  pymupdf pypdf  # compare_pdfs (chrome.py) reads PDF text with PyMuPDF, check_pdf_pages (pdf.py) counts pages with pypdf
  "opencv-python-headless>=4.5,<5" imagehash  # compare_videos (vlc.py) decodes with OpenCV, hashes with imagehash
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
