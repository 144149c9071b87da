"""A rolling restart (issue 29 §4): two instances behind nginx are sent SIGTERM one after the other,
each started again on its port once it has drained, while clients play through nginx. Each instance
drains and exits; the clients are told it restarts and come back through nginx to their games;
nothing any client was shown is missing from the stored games, no step is stored twice, the bots
play on, and a turn clock resumes on the instance that takes the table over."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from ..services import free_port
from .players import Player
from .services import GUARD, NginxServer, instance, wait_until
from .test_cluster import HUMAN, RANDOM, new_table, stored_actions

SETTINGS = {"CODECRACK_TURN_THINK": "1.5", "CODECRACK_TURN_COUNTDOWN": "0.5", "CODECRACK_DRAIN_SECONDS": "10"}
TIMEOUT = {"type": "timeout"}
PACE = 0.3  # seconds a player waits after each new state: the games outlast the restarts


class PacedPlayer(Player):
    def read(self, message) -> bool:
        fresh = super().read(message)
        if fresh:
            time.sleep(PACE)
        return fresh


def restart(servers: dict, name: str, start) -> None:
    """SIGTERM the instance ``name``; once it has drained and exited, start it again on its port."""
    server = servers[name]
    server.process.send_signal(signal.SIGTERM)
    exited = server.process.wait(timeout=GUARD)
    log = (Path(server._folder.name) / "server.log").read_text()
    assert exited == -signal.SIGTERM, log[-3000:]  # drained: not the hard stop
    assert "Application shutdown complete" in log
    server.__exit__(None, None, None)
    servers[name] = start(name)


@pytest.mark.long
def test_a_rolling_restart_through_nginx_loses_nothing(postgres_url, redis_server):
    ports = {"one": free_port(), "two": free_port()}

    def start(name: str):
        return instance(postgres_url, redis_server.url, name, port=ports[name], **SETTINGS).__enter__()

    servers = {name: start(name) for name in ports}
    try:
        with NginxServer(list(ports.values())) as proxy:
            players = []
            for seed in range(4):
                made = new_table(proxy.url, [HUMAN, RANDOM], sit=0, options={"clock": True})
                idle = seed == 0  # this one lets a turn run out after it reconnects: the clock must play it
                players.append(
                    PacedPlayer(proxy.url, made["code"], made["token"], seed=seed, idle_after_reconnect=idle)
                )
            for player in players:
                player.start()
            wait_until(lambda: all(player.step >= 4 for player in players), "the games get going")
            clocked = players[0]
            clocked.paused.set()  # its game waits for it across both restarts, so it must come back
            restarts_begin = clocked.step
            restart(servers, "one", start)
            restart(servers, "two", start)
            clocked.paused.clear()
            for player in players:
                player.finish()
            assert clocked.reconnections >= 1
            for player in players:
                played = player.check_against_record()  # every state it was shown is stored
                actions = stored_actions(postgres_url, player.code)
                assert [step for step, _, _ in actions] == list(range(played))  # each step once
            # the clock played the turn it let run out (or, if its paused game ended meanwhile, as can
            # happen on a loaded machine, the turns it let run out during the restarts)
            actions = stored_actions(postgres_url, clocked.code)
            timeouts = [step for step, seat, action in actions[restarts_begin:] if (seat, action) == (0, TIMEOUT)]
            assert clocked.idled_at in timeouts if clocked.idled_at is not None else timeouts
    finally:
        for server in servers.values():
            server.__exit__(None, None, None)
