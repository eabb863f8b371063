"""Every README block marked `<!-- runnable -->` runs as written (from the repo root)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"<!-- runnable -->\s*\n```(\w+)\n(.*?)\n```", re.S)
BLOCKS = BLOCK.findall((ROOT / "README.md").read_text())


def test_readme_has_runnable_blocks():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize(("lang", "code"), BLOCKS, ids=[f"{i}-{lang}" for i, (lang, _) in enumerate(BLOCKS)])
def test_runnable_block(lang: str, code: str):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    if lang == "bash":
        argv = ["bash", "-euo", "pipefail", "-c", code.replace(".venv/bin/", f"{Path(sys.executable).parent}/")]
    else:
        argv = [sys.executable, "-c", code]
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
