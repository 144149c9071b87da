"""Table chat (issue 28 §5): who reads what, muting, the chat switched off, hostile lines."""

from __future__ import annotations

from contextlib import ExitStack, contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, text

from codecrack.web.app import create_app
from codecrack.web.chat import BURST

from .conftest import fast_config
from .wsclient import HUMAN, create, seated

TOY = {"target": 3, "first": 0}


@contextmanager
def toy_table(client, spectators: int = 1, **body):
    """A toy table (three points to win), both seats taken: yields ``(code, ann, bob, [spectators])``."""
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, name="Ann", options=TOY, **body)
    code = made["code"]
    other = client.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    with ExitStack() as stack:
        ann = stack.enter_context(seated(client, code, made["token"]))
        bob = stack.enter_context(seated(client, code, other))
        watchers = [stack.enter_context(seated(client, code)) for _ in range(spectators)]
        yield code, ann, bob, watchers


def said(connection) -> list[dict]:
    """Every chat line the connection was sent so far."""
    return [line for m in connection.log if m["type"] == "chat" for line in m["lines"]]


def next_line(connection) -> dict:
    """The next line not sent before: a line said while a connection is greeted may come twice
    (live, and among those said before it came); pages keep one per id."""
    seen = {line["id"] for line in said(connection)}
    return connection.until(lambda m: m["type"] == "chat" and any(line["id"] not in seen for line in m["lines"]))[
        "lines"
    ][-1]


def chat_until_step(connection, step: int) -> list[dict]:
    """The chat lines that arrive before the view of ``step``."""
    before = len(connection.log)
    connection.state_at(step)
    return [line for m in connection.log[before:] if m["type"] == "chat" for line in m["lines"]]


def test_players_chat_with_players_and_the_spectators_read_it(client):
    with toy_table(client) as (_, ann, bob, [watcher]):
        ann.ws.send_json({"type": "chat", "phrase": "good_luck"})
        for connection in (ann, bob, watcher):
            line = next_line(connection)
            assert (line["seat"], line["name"], line["kind"], line["body"]) == (0, "Ann", "phrase", "good_luck")
        bob.ws.send_json({"type": "chat", "text": "  <b>you too</b>  "})
        for connection in (ann, bob, watcher):
            assert next_line(connection)["body"] == "<b>you too</b>"  # stored and sent as typed; pages show text


def test_a_spectators_line_reaches_the_players_only_after_the_game(tmp_path):
    """The players' messages during the game are byte-identical whether or not a spectator spoke
    (the table's code aside; its summaries, sent as connections come, left out); at the end they
    are sent what the spectators said."""

    def play(speak: bool) -> tuple[list[str], list[str]]:
        with toy_table(client, spectators=2, seed=7) as (code, ann, bob, [loud, other]):
            if speak:
                loud.ws.send_json({"type": "chat", "text": "bob has a 7"})
                assert next_line(loud)["body"] == "bob has a 7"  # delivered to everyone here by now
                assert next_line(other)["seat"] is None
            ann.act({"type": "add", "amount": 1})
            bob.state_at(1)
            texts = tuple([t.replace(code, "CODE") for t in p.texts if '"type":"table"' not in t] for p in (ann, bob))
            bob.act({"type": "add", "amount": 2})  # three: the game is over
            if speak:
                for player in (ann, bob):
                    assert next_line(player) == {**said(loud)[-1]}
            return texts

    with TestClient(create_app(fast_config(tmp_path, allow_seed=True))) as client:
        quiet, loud = play(False), play(True)
    assert quiet == loud


def test_a_player_who_joins_during_the_game_is_not_sent_what_spectators_said(client):
    made = create(client, "toy", [HUMAN, HUMAN], sit=0, options=TOY)
    code = made["code"]
    with seated(client, code) as watcher:
        watcher.ws.send_json({"type": "chat", "phrase": "thinking"})
        next_line(watcher)
        other = client.post(f"/api/tables/{code}/join", json={"seat": 1}).json()["token"]
        with seated(client, code, other) as bob, seated(client, code) as late:
            bob.ws.send_json({"type": "ping"})
            bob.until(lambda m: m["type"] == "pong")
            assert said(bob) == []  # no greeting: nothing it may read was said
            assert [line["body"] for line in late.until(lambda m: m["type"] == "chat")["lines"]] == ["thinking"]


def test_a_muted_seat_is_not_heard(client):
    with toy_table(client) as (_, ann, bob, [watcher]):
        bob.ws.send_json({"type": "mute", "seat": 0})
        bob.ws.send_json({"type": "ping"})
        bob.until(lambda m: m["type"] == "pong")
        ann.ws.send_json({"type": "chat", "phrase": "oops"})
        assert next_line(watcher)["body"] == "oops"
        ann.act({"type": "add", "amount": 1})
        assert chat_until_step(bob, 1) == []
        bob.ws.send_json({"type": "mute", "seat": 0, "muted": False})
        bob.ws.send_json({"type": "ping"})
        bob.until(lambda m: m["type"] == "pong")
        ann.ws.send_json({"type": "chat", "phrase": "thanks"})
        assert next_line(bob)["body"] == "thanks"


def test_a_player_turns_the_chat_off_for_everyone(client):
    with toy_table(client) as (code, ann, bob, [watcher]):
        watcher.ws.send_json({"type": "chat_switch", "off": True})
        assert "only the players" in watcher.until(lambda m: m["type"] == "error")["message"]
        ann.ws.send_json({"type": "chat_switch", "off": True})
        for connection in (ann, bob, watcher):
            message = connection.until(lambda m: m["type"] == "chat" and m["lines"])
            assert message["off"] and message["lines"][-1]["kind"] == "off"
        bob.ws.send_json({"type": "chat", "phrase": "hello"})
        assert bob.until(lambda m: m["type"] == "error")["message"] == "the chat is off at this table"
        with seated(client, code) as late:
            assert late.until(lambda m: m["type"] == "chat")["off"] is True
        bob.ws.send_json({"type": "chat_switch", "off": False})
        assert next_line(ann)["kind"] == "on"
        bob.ws.send_json({"type": "chat", "phrase": "hello"})
        assert next_line(ann)["body"] == "hello"


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ({"type": "chat", "text": "x" * 201}, "at most 200 characters"),
        ({"type": "chat", "text": "x" * 501}, "at most 500 characters"),
        ({"type": "chat", "text": "two\nlines"}, "control characters"),
        ({"type": "chat", "text": "evil \u202e txt.exe"}, "control characters"),
        ({"type": "chat", "text": "   "}, "the text is empty"),
        ({"type": "chat", "phrase": "hello", "text": "hi"}, "not both"),
        ({"type": "chat"}, "not both"),
        ({"type": "chat", "phrase": "you lose"}, "phrase"),
        ({"type": "chat", "text": "hi", "html": "<b>"}, "html"),
        ({"type": "mute", "seat": -1}, "seat"),
    ],
)
def test_a_hostile_line_is_refused_and_nothing_is_stored(tmp_path, message, error):
    with TestClient(create_app(fast_config(tmp_path))) as client, toy_table(client) as (code, ann, bob, _):
        ann.ws.send_json(message)
        assert error in ann.until(lambda m: m["type"] == "error")["message"]
    assert stored_lines(tmp_path, code) == 0


def test_chat_lines_are_limited_per_minute(tmp_path):
    with TestClient(create_app(fast_config(tmp_path, chat_per_minute=0.001))) as client:
        with toy_table(client) as (code, ann, *_):
            for _ in range(BURST):
                ann.ws.send_json({"type": "chat", "phrase": "hello"})
                next_line(ann)
            ann.ws.send_json({"type": "chat", "phrase": "hello"})
            assert "too many chat lines" in ann.until(lambda m: m["type"] == "error")["message"]
    assert stored_lines(tmp_path, code) == BURST


def stored_lines(path, code: str) -> int:
    engine = create_engine(f"sqlite:///{path}/web.db")
    with engine.connect() as db:
        count = db.execute(text("SELECT count(*) FROM chat_lines WHERE table_code = :code"), {"code": code}).scalar()
    engine.dispose()
    return count


def test_a_table_where_nothing_was_said_reads_no_chat_from_the_database(client):
    """A new table's connections are greeted, and its end is told, without reading ``chat_lines``
    (nothing was said there: issue 26's load figures); once a line is said, a connection that
    comes later is sent it, read from the database."""
    statements: list[str] = []
    engine = client.app.state.hub.engine
    listen = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listen)
    try:
        with toy_table(client) as (code, ann, bob, [watcher]):
            ann.act({"type": "add", "amount": 1})
            bob.state_at(1)
            bob.act({"type": "add", "amount": 2})  # three: the game is over
            for connection in (ann, bob, watcher):
                connection.state_at(2)
            assert [s for s in statements if "chat_lines" in s] == []
            assert [said(connection) for connection in (ann, bob, watcher)] == [[], [], []]
            watcher.ws.send_json({"type": "chat", "phrase": "well_played"})
            assert next_line(ann)["body"] == "well_played"
            with seated(client, code) as late:
                assert [line["body"] for line in late.until(lambda m: m["type"] == "chat")["lines"]] == ["well_played"]
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    assert any("FROM chat_lines" in s for s in statements)  # the late one's greeting read it


def test_a_connection_that_only_reads_the_chat_keeps_no_talker(client):
    """A connection is greeted with the lines said before it came without being given a rate or a
    muted set of its own (an idle socket holds none: docs/benchmarks.md, "Idle sockets"); one that
    speaks gets them."""
    talkers = client.app.state.hub.chat.talkers
    with toy_table(client) as (code, ann, bob, [watcher]):
        bob.ws.send_json({"type": "chat", "phrase": "hello"})
        assert next_line(ann)["body"] == "hello"
        assert len(talkers) == 1
        with seated(client, code) as late:
            assert [line["body"] for line in late.until(lambda m: m["type"] == "chat")["lines"]] == ["hello"]
            assert len(talkers) == 1
