# The two commands of the README. Both are idempotent.
.PHONY: demo test setup

setup:
	scripts/setup.sh

# Set up, then run the `os` suite headless with the offline reference model.
demo: setup
	.venv/bin/deskact run task_suites/os --model reference --workers 2

# Set up, then run the whole test suite.
test: setup
	.venv/bin/python -m pytest -q
