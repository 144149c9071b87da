"""The house style holds everywhere: ruff's lint rules and its formatter (pyproject.toml's [tool.ruff])."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ["codecrack", "tests", "examples", "loadtest", "scripts"]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    command = shutil.which("ruff", path=str(Path(sys.executable).parent)) or "ruff"
    return subprocess.run([command, *args, *CHECKED], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_finds_no_lint_fault():
    done = ruff("check", "--no-cache", "--output-format", "concise")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted_as_ruff_formats_it():
    done = ruff("format", "--check", "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr
