"""The container image (issue 29 §1). deploy/build-image builds it from Debian's packages with podman
(mmdebstrap makes the base, no registry is reached); it runs on SQLite as an unprivileged user on a
read-only root, its HEALTHCHECK passes once ready, a game is played through it, and a new container
on the same volume carries the game on: the player is back in it and everything it was shown is
stored. deploy/compose.yaml runs too (podman-compose): PostgreSQL, Redis, two instances and nginx
on the project's network, where they find each other by name (netavark's bridge and aardvark-dns),
and a game is played through nginx. Podman runs as the machine allows it: runc, the cgroupfs
manager, host networking unless a network is named, and no default ulimits, in this test's own
containers.conf, storage, networks and locks (nothing is left behind).
Every command it runs (the build with its mmdebstrap, each podman) is bounded and, past its bound,
killed with everything it started (:func:`tests.services.bounded`)."""

from __future__ import annotations

import os
import resource
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
IMAGE = "localhost/codecrack:latest"  # the name deploy/compose.yaml runs
CONTAINERS_CONF = """\
[containers]
default_ulimits = []
netns = "host"

[network]
network_backend = "netavark"  # what `make podman` installs (podman would pick CNI where netavark is missing)
network_config_dir = "{folder}/networks"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "{folder}/tmp"
lock_type = "file"
"""
_, HARD_NOFILE = resource.getrlimit(resource.RLIMIT_NOFILE)
# runc may lower limits here, not raise them; given nofile alone, podman would set nproc to a
# million, which is refused too
MACHINE_LIMITS = (
    f"{{nofile: {65536 if HARD_NOFILE == resource.RLIM_INFINITY else min(65536, HARD_NOFILE)}, nproc: 4096}}"
)
HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}


def why_podman_cannot_run() -> str | None:
    if os.geteuid() != 0:
        return "the image test runs podman as root (as CI does); rootless podman needs subordinate ids set up"
    needed = ("podman", "runc", "mmdebstrap", "podman-compose")
    missing = [name for name in needed if not shutil.which(name, path=f"{PATH}:/usr/sbin")]
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
    run.folder = folder
    yield run
    run("system", "reset", "--force", check=False, timeout=4 * GUARD)


@pytest.fixture(scope="module")
def images(podman) -> str:
    """codecrack's image and the compose file's PostgreSQL, Redis and nginx (deploy/build-image --services)."""
    built = bounded([str(ROOT / "deploy" / "build-image"), "--services", IMAGE], 1200, podman.env)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    return IMAGE


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
def test_the_image_plays_a_game_and_keeps_it_across_a_new_container(podman, images):
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


@pytest.mark.long
@pytest.mark.timeout(1800)
def test_the_compose_file_runs_two_instances_behind_nginx_and_a_game_is_played_through_it(podman, images):
    """Before: checked by hand only (docs/deploy.md said podman here had host networking only)."""
    port = free_port()
    env = {**podman.env, "PORT": str(port)}
    limits = podman.folder / "limits.yaml"  # this machine's: its hard limit of open files, and nproc set
    limits.write_text(
        "services:\n"
        + "".join(f"  {name}:\n    ulimits: {MACHINE_LIMITS}\n" for name in ("instance-1", "instance-2", "nginx"))
    )
    compose = [
        "podman-compose", "--project-name", "codecrack", "-f", str(ROOT / "deploy" / "compose.yaml"), "-f", str(limits)
    ]  # fmt: skip
    try:
        up = bounded([*compose, "up", "-d"], 4 * GUARD, env)
        assert up.returncode == 0, up.stdout[-4000:] + up.stderr[-4000:]
        url = f"http://127.0.0.1:{port}"

        def served() -> bool:
            try:
                return httpx.get(f"{url}/readyz", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(served, "nginx serves a ready instance", 6 * GUARD)
        for instance in ("codecrack_instance-1_1", "codecrack_instance-2_1"):  # on PostgreSQL and Redis, by name
            wait_until(
                lambda: podman("healthcheck", "run", instance, check=False).returncode == 0, f"{instance} is ready"
            )
        made = httpx.post(f"{url}/api/tables", json={"game": "coda", "seats": [HUMAN, RANDOM], "sit": 0}).json()
        player = Player(url, made["code"], made["token"], seed=5)
        player.start()
        player.finish()
        player.check_against_record()
    finally:
        bounded([*compose, "down", "-v"], 4 * GUARD, env)
