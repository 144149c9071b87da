"""mypy checks every module of codecrack (pyproject.toml's [tool.mypy]): core/ and the catalogues
as ``--strict`` would, the rest in mypy's default mode, with no module exempt; the package ships
``py.typed`` so that its users' type checkers read its annotations."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.mark.long  # about a minute of one core on a fresh clone (no cache): started first, never the run's tail
def test_mypy_finds_no_fault():
    """A module mypy faults fails here: fix it."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],  # its cache: .mypy_cache/
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_is_exempt():
    """mypy checks all of codecrack: no module's faults are ignored (the last one, web/direct_send,
    left the list in issue 26)."""
    ignored = [
        name for part in CONFIG["tool"]["mypy"]["overrides"] if part.get("ignore_errors") for name in part["module"]
    ]
    assert ignored == []


def test_the_package_ships_py_typed():
    assert (ROOT / "codecrack" / "py.typed").is_file()
    assert "py.typed" in CONFIG["tool"]["setuptools"]["package-data"]["*"]
