"""Work the sandbox's tests send to a worker process. A worker imports the module of the work it
is sent, within the call's CPU budget, so this one imports nothing (importing a test module, with
pytest and the web client, took 1.2 s of CPU: over the tests' 0.5 s budget, refused for "time")."""

from __future__ import annotations

from codecrack.web.sandbox import MB  # in the workers already (the fork server preloads it)


def greedy(megabytes: int) -> int:
    return len(bytearray(megabytes * MB))


def spin() -> None:
    while True:
        pass


def greedy_hint(view: dict) -> dict:
    return {"size": greedy(64 * 1024)}  # 64 GB: more than any server's budget


def greedy_review(record: dict, seat: int) -> dict:
    return {"size": greedy(64 * 1024)}
