"""Work the sandbox's tests send to a worker process. A worker imports the module of the work it
is sent, within the call's CPU budget, so this one imports nothing (importing a test module, with
pytest and the web client, took 1.2 s of CPU: over the tests' 0.5 s budget, refused for "time").
The agents here are sent to a worker with each bot move, as every bot's agent is."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from codecrack.web.sandbox import MB  # in the workers already (the fork server preloads it)


def greedy(megabytes: int) -> int:
    return len(bytearray(megabytes * MB))


def spin() -> None:
    while True:
        pass


def greedy_hint(view: dict) -> dict:
    return {"size": greedy(64 * 1024)}  # 64 GB: more than any server's budget


def greedy_review(reviewer: Any, step: int, view: dict, action: dict) -> tuple[Any, list]:
    return reviewer, [greedy(64 * 1024)]


class Go:
    """A flag that worker processes can wait for: a file that is there once set."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def set(self) -> None:
        self.path.touch()

    def wait(self, seconds: float) -> bool:
        for _ in range(round(seconds * 100)):
            if self.path.exists():
                return True
            time.sleep(0.01)
        return self.path.exists()


class Waiting:
    """An agent that decides only once ``go`` is set (bounded: a minute), in a worker process too."""

    def __init__(self, agent: Any, go: Go) -> None:
        self.agent, self.go = agent, go

    def act(self, view: dict) -> Any:
        self.go.wait(60)
        return self.agent.act(view)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "agent":  # unpickling looks for these before it sets them
            raise AttributeError(name)
        return getattr(self.agent, name)


class Noted:
    """An agent that writes down the table it decides for in the file ``served`` (from a worker
    process too), then plays the first legal action."""

    def __init__(self, code: str, served: Path) -> None:
        self.code, self.served = code, served

    def act(self, view: dict) -> Any:
        with self.served.open("a") as notes:
            notes.write(self.code + "\n")
        return view["legal_actions"][0]


class Failing:
    """An agent whose every move fails (in a worker process too)."""

    name = "failing"

    def act(self, view: dict) -> Any:
        raise RuntimeError("the bot crashed")
