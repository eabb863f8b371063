# Shortcuts for the README's two commands (which work without make).
.PHONY: demo test setup check
setup:
	bash scripts/setup.sh
demo:
	bash scripts/demo.sh
test:
	bash scripts/test.sh
check:
	bash scripts/check.sh
