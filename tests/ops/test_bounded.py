"""tests.services.bounded: a command past its bound is killed with everything it started, and what
it printed is kept. subprocess.run's timeout kills only the direct child: a grandchild (mmdebstrap
under deploy/build-image, a podman build) goes on running, holding its locks and the machine."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..cluster.services import wait_until
from ..services import bounded


def gone(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "\nState:\tZ" in status.read_text()  # killed, not yet reaped by its new parent
    except FileNotFoundError:
        return True


def test_a_command_past_its_bound_is_killed_with_its_children(tmp_path):
    child = tmp_path / "child"
    command = ["sh", "-c", f"echo started; sleep 300 & echo $! > {child}; wait"]
    with pytest.raises(subprocess.TimeoutExpired) as expired:
        bounded(command, 2)
    assert expired.value.output == "started\n"
    wait_until(lambda: gone(int(child.read_text())), "the grandchild is killed")


def test_a_command_within_its_bound_gives_its_output_and_status():
    done = bounded(["sh", "-c", "echo out; echo err >&2; exit 3"], 30)
    assert (done.returncode, done.stdout, done.stderr) == (3, "out\n", "err\n")
