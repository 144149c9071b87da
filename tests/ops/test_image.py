"""The container image (issue 29 §1). deploy/build-image builds it from Debian's packages with podman
(mmdebstrap makes the base, no registry is reached); it runs on SQLite as an unprivileged user on a
read-only root, its HEALTHCHECK passes once ready, a game is played through it, and a new container
on the same volume carries the game on: the player is back in it and everything it was shown is
stored. Podman runs as the machine allows it: runc, the cgroupfs manager, host networking and no
default ulimits, in this test's own containers.conf, storage and locks (nothing is left behind).
Every command it runs (the build with its mmdebstrap, each podman) is bounded and, past its bound,
killed with everything it started (:func:`tests.services.bounded`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from ..cluster.players import Player
from ..cluster.services import GUARD, wait_until
from ..services import bounded, free_port

ROOT = Path(__file__).resolve().parents[2]
PATH = os.environ.get("PATH", "/usr/bin")
IMAGE = "localhost/codecrack:test"
CONTAINERS_CONF = """\
[containers]
default_ulimits = []
netns = "host"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "{folder}/tmp"
lock_type = "file"
"""
HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}


def why_podman_cannot_run() -> str | None:
    if os.geteuid() != 0:
        return "the image test runs podman as root (as CI does); rootless podman needs subordinate ids set up"
    missing = [name for name in ("podman", "runc", "mmdebstrap") if not shutil.which(name, path=f"{PATH}:/usr/sbin")]
    if missing:
        return f"{', '.join(missing)} not installed (`make podman` installs them)"
    return None


@pytest.fixture(scope="module")
def podman(tmp_path_factory):
    """Runs ``podman ARGS`` with this test's settings and storage; removes them all at the end."""
    why = why_podman_cannot_run()
    if why:
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("podman")
    (folder / "containers.conf").write_text(CONTAINERS_CONF.format(folder=folder))
    (folder / "storage.conf").write_text(
        f'[storage]\ndriver = "overlay"\ngraphroot = "{folder}/storage"\nrunroot = "{folder}/run"\n'
    )
    env = {
        **os.environ,
        "CONTAINERS_CONF": str(folder / "containers.conf"),
        "CONTAINERS_STORAGE_CONF": str(folder / "storage.conf"),
        "PIP": str(Path(sys.executable).parent / "pip"),
    }

    def run(*args: str, check: bool = True, timeout: float = GUARD) -> subprocess.CompletedProcess[str]:
        done = bounded(["podman", *args], timeout, env)
        assert done.returncode == 0 or not check, f"podman {' '.join(args)}: {done.stderr}"
        return done

    run.env = env
    yield run
    run("system", "reset", "--force", check=False, timeout=4 * GUARD)


def logs(podman, name: str) -> str:
    shown = podman("logs", name, check=False)
    return shown.stdout + shown.stderr


def start(podman, name: str, port: int) -> str:
    podman(
        "run", "--detach", "--name", name, "--read-only", "--volume", "codecrack-data:/data",
        "--env", f"CODECRACK_PORT={port}", "--env", "CODECRACK_AI_PACE=0", "--env", "CODECRACK_DRAIN_SECONDS=10",
        IMAGE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        try:
            return httpx.get(f"{url}/readyz", timeout=2).status_code == 200
        except httpx.HTTPError:
            assert podman("inspect", "--format", "{{.State.Running}}", name).stdout.strip() == "true", podman(
                "logs", name, check=False
            ).stderr
            return False

    wait_until(ready, f"the container {name} is ready", 4 * GUARD)
    return url


@pytest.mark.long
@pytest.mark.timeout(1800)  # a first build downloads Debian's base (up to 20 minutes allowed for it)
def test_the_image_plays_a_game_and_keeps_it_across_a_new_container(podman):
    built = bounded([str(ROOT / "deploy" / "build-image"), IMAGE], 1200, podman.env)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    port = free_port()
    url = start(podman, "codecrack-first", port)
    assert podman("healthcheck", "run", "codecrack-first").returncode == 0  # the image's HEALTHCHECK
    assert podman("exec", "codecrack-first", "id", "-u").stdout.strip() == "10001"
    assert podman("exec", "codecrack-first", "touch", "/opt/codecrack/x", check=False).returncode != 0  # read-only

    made = httpx.post(f"{url}/api/tables", json={"game": "coda", "seats": [HUMAN, RANDOM], "sit": 0}).json()
    player = Player(url, made["code"], made["token"], seed=3)
    player.start()
    wait_until(lambda: player.step >= 4, "the game gets going")
    player.paused.set()  # it waits, mid-game, while the container is replaced
    podman("stop", "--time", "30", "codecrack-first", timeout=2 * GUARD)  # SIGTERM: it drains
    assert "draining" in logs(podman, "codecrack-first")
    podman("rm", "codecrack-first")

    start(podman, "codecrack-second", port)
    player.paused.clear()
    player.finish()
    assert player.reconnections >= 1
    player.check_against_record()
