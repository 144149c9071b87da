"""The suite's order (tests/conftest.py): the files that hold a ``long`` test run first, each file's
tests together, so that no worker ends the run alone on a long test and a module's fixtures are set
up once."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = """\
from tests.conftest import pytest_collection_modifyitems  # noqa: F401
"""
SHORT = """\
def test_short():
    pass
"""
WITH_LONG = """\
import pytest

SET_UP = []


@pytest.fixture(scope="module")
def shared():
    SET_UP.append(1)
    return len(SET_UP)


def test_before(shared):
    assert shared == 1


@pytest.mark.long
def test_long(shared):
    assert shared == 1  # set up once: the file's tests were kept together


def test_after(shared):
    assert shared == 1
"""


def test_files_with_a_long_test_go_first_and_keep_their_tests_together(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_a.py").write_text(SHORT)
    (tmp_path / "test_b.py").write_text(WITH_LONG)
    (tmp_path / "test_c.py").write_text(SHORT)
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    long: long\n")
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", str(tmp_path)]
    done = subprocess.run(command, cwd=tmp_path, env={"PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [line.split(" ")[0].split("::")[1] for line in done.stdout.splitlines() if " PASSED" in line]
    assert ran == ["test_before", "test_long", "test_after", "test_short", "test_short"]
    order = [line.split("::")[0] for line in done.stdout.splitlines() if " PASSED" in line]
    assert order == ["test_b.py"] * 3 + ["test_a.py", "test_c.py"]
