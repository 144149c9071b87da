"""What a seated game socket that sits idle holds for its life, through ``codecrack serve``'s own
websocket protocol (codecrack/web/direct_send.py) and the whole app: every object here is paid
once per connected player (docs/benchmarks.md, "Idle sockets")."""

from __future__ import annotations

import asyncio
import json
import types

import uvicorn
from fastapi.testclient import TestClient
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode

from codecrack.web.app import create_app
from codecrack.web.direct_send import DirectSend

from .conftest import fast_config
from .test_direct_send import UPGRADE, PeerTransport, reachable
from .wsclient import HUMAN, create

GUARD = 60.0  # seconds the scenario may take (a hang guard, no timing claim)


def coroutine_chain(task: asyncio.Task) -> tuple[list[str], object]:
    """The names of the coroutines ``task`` awaits through, outermost first, and what the innermost
    awaits (a future's iterator, for a future)."""
    names, awaited = [], task.get_coro()
    while isinstance(awaited, types.CoroutineType):
        names.append(awaited.cr_code.co_qualname)
        awaited = awaited.cr_await
    return names, awaited


def seated_idle(tmp_path, inspect) -> object:
    """Seat a socket at a Coda table through a DirectSend protocol fed by hand (as uvicorn's HTTP
    protocol hands an upgrade over), wait for its state, then ``inspect(protocol)`` in the server's loop."""
    with TestClient(create_app(fast_config(tmp_path))) as client:
        made = create(client, "coda", [HUMAN, HUMAN], sit=0)
        app = client.app

        async def scenario() -> object:
            config = uvicorn.Config(app=app, interface="asgi3")
            config.loaded, config.loaded_app = True, app
            protocol = DirectSend(config, ServerState(), {}, _loop=asyncio.get_running_loop())
            protocol.connection_made(PeerTransport())
            protocol.data_received(UPGRADE.replace(b"/ws/ABCDE", f"/ws/{made['code']}".encode()) + b"\r\n")
            hello = json.dumps({"type": "hello", "token": made["token"]}).encode()
            async with asyncio.timeout(GUARD):
                while not protocol.handshake_complete:
                    await asyncio.sleep(0)
                protocol.data_received(Frame(Opcode.TEXT, hello).serialize(mask=True))
                while not any(b'"type":"state"' in data for data in protocol.transport.written):
                    await asyncio.sleep(0.01)
                for _ in range(10):  # whatever the greeting started settles
                    await asyncio.sleep(0)
            try:
                return inspect(protocol)
            finally:
                protocol.connection_lost(None)
                async with asyncio.timeout(GUARD):
                    while protocol.tasks:
                        await asyncio.sleep(0)

        return client.portal.call(scenario)


def test_an_idle_game_socket_awaits_its_next_message_through_few_coroutines(tmp_path):
    """Each coroutine a socket's task awaits through is a frame held for the socket's life (a few
    hundred bytes each). The app's chain is uvicorn's task, the app's entry, the game socket's
    serving and its conversation; the wait for the next message is one future, with no coroutine
    of the protocol's own (uvicorn's ``receive`` and its queue's ``get`` were two)."""

    def chain(protocol: DirectSend) -> tuple[list[str], object]:
        (task,) = protocol.tasks
        return coroutine_chain(task)

    names, innermost = seated_idle(tmp_path, chain)
    assert type(innermost).__name__ == "FutureIter", (names, innermost)
    assert len(names) <= 5, names


def test_an_idle_game_socket_holds_no_timer_of_its_own(tmp_path):
    """uvicorn's protocol holds a timer of the event loop per socket for its keepalive, its next
    ping or its pong's deadline (0.6 KB a socket); here every socket waits in a slot of the
    server's one keepalive (codecrack/web/pings.py)."""

    def timers(protocol: DirectSend) -> list[object]:
        return [timer for timer in (protocol.ping_timer, protocol.pong_timer) if timer is not None]

    assert seated_idle(tmp_path, timers) == []


def test_an_idle_game_socket_lets_go_of_its_scope(tmp_path):
    """The ASGI scope (13 entries, its dicts of extensions and state, the path) is read while the
    socket opens and joins; then neither the protocol nor the socket's task keeps it."""

    def scopes(protocol: DirectSend) -> list[object]:
        (task,) = protocol.tasks
        held = reachable(task.get_coro()) + reachable(protocol) + [protocol.scope]
        return [item for item in held if isinstance(item, dict) and "asgi" in item]

    assert seated_idle(tmp_path, scopes) == []
