#!/usr/bin/env bash
# The fast gate (`make check`): ruff, mypy on runtime/ and toolkits/, and the tests that need no
# display, no bubblewrap, no Ray and no OSWorld venv and are not marked slow. A few minutes on 2
# cores; CI runs it before the full suite. Needs .venv (scripts/setup.sh); extra arguments go to
# pytest. Every stage runs, so one report shows all three; the exit status is 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
FAST_TESTS="not display and not bwrap and not slow and not ray and not conformance"
failed=()

echo "check: ruff" >&2
.venv/bin/ruff check --quiet . || failed+=(ruff)

echo "check: mypy" >&2
# The checkout is the `deskact` package itself, so mypy gets a folder in which `deskact` is a link
# to it (kept in mypy's cache folder, which no other tool walks); paths are shown repo-relative.
root=.mypy_cache/root
mkdir -p "$root" && ln -sfn ../.. "$root/deskact"
MYPYPATH=$root .venv/bin/mypy | sed "s#^$root/deskact/##" || failed+=(mypy)

echo "check: tests -m \"$FAST_TESTS\"" >&2
.venv/bin/python -m pytest -q -p no:cacheprovider -m "$FAST_TESTS" "$@" || failed+=(tests)

if ((${#failed[@]})); then
  echo "check: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "check: all passed" >&2
