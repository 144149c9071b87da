"""The protocol end to end: the example bots in Python and node, ``codecrack bot``, what the
host sends (only the seat's view, never a seed), the schemas in docs/protocol.md."""

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

import codecrack
from codecrack.agents import Agent, make_agent
from codecrack.arena import ArenaConfig, play_series
from codecrack.core.runner import run_game
from codecrack.protocol import ProcessAgent, ProtocolError, json_schemas, serve
from codecrack.protocol.bot import agent_maker

ROOT = Path(__file__).parents[2]
HOSTILE = Path(__file__).with_name("hostile_bot.py")
NODE = shutil.which("node") or "/usr/bin/node"


@pytest.mark.parametrize(
    "bot", [f"{sys.executable} {ROOT}/examples/bots/coda_greedy.py", f"{NODE} {ROOT}/examples/bots/coda_greedy.js"]
)
def test_the_example_bots_play_whole_games_in_the_arena(bot):
    if not Path(bot.split()[0]).exists():
        pytest.skip("node is not installed")
    summary = play_series(ArenaConfig("coda", 3, (f"cmd:{bot}", "random"), 3, seed=2)).summary()
    assert summary["fault_count"] == 0 and summary["games"] == 3
    assert sum(row["wins"] for row in summary["agents"]) == pytest.approx(3)


def test_the_python_and_node_example_bots_make_the_same_choices():
    if not Path(NODE).exists():
        pytest.skip("node is not installed")
    python_bot = f"cmd:{sys.executable} {ROOT}/examples/bots/coda_greedy.py"
    node_bot = f"cmd:{NODE} {ROOT}/examples/bots/coda_greedy.js"
    games = [play_series(ArenaConfig("coda", 2, (bot, "easy"), 2, seed=4)).games for bot in (python_bot, node_bot)]
    assert [g["places"] for g in games[0]] == [g["places"] for g in games[1]]


def test_codecrack_bot_plays_through_the_protocol():
    command = f"cmd:{sys.executable} -m codecrack bot --game coda --level medium --seed 3"
    summary = play_series(ArenaConfig("coda", 2, (command, "random"), 1, seed=1)).summary()
    assert summary["fault_count"] == 0


def test_the_host_sends_only_the_seats_view_and_no_seed(tmp_path):
    log = tmp_path / "received.jsonl"
    game = codecrack.new_game("coda", players=2, seed=11)
    views = []
    bot = ProcessAgent(f"cmd:{sys.executable} {HOSTILE} record {log}", game, seat=1)

    class Spy(Agent):
        def act(self, view):
            views.append(view)
            return bot.act(view)

    try:
        run_game(game, {0: make_agent("random", "coda", seed=1), 1: Spy()})
    finally:
        bot.close(game.result)
    received = [json.loads(line) for line in log.read_text().splitlines()]
    assert [m["type"] for m in received[:2]] == ["hello", "ping"] and received[-1]["type"] == "quit"
    hello = received[0]
    assert (hello["game"], hello["players"], hello["seat"]) == ("coda", 2, 1)
    assert "seed" not in json.dumps(hello)
    assert [m["view"] for m in received if m["type"] == "act"] == views
    assert all(view["seat"] == 1 for view in views)


def test_serve_answers_pings_and_acts_and_stops_at_quit():
    game = codecrack.new_game("coda", players=2, seed=3)
    seat = min(game.to_move)
    hello = {"type": "hello", "game": "coda", "players": 2, "options": {}, "seat": seat, "time_limit_ms": 1000}
    lines = [
        hello,
        {"type": "ping", "id": 7},
        {"type": "act", "id": 1, "view": game.view(seat), "time_limit_ms": 1000},
        {"type": "quit"},
        {"type": "ping", "id": 8},
    ]
    out = io.StringIO()
    serve(agent_maker("coda", "hard", 0), io.StringIO("".join(json.dumps(m) + "\n" for m in lines)), out)
    pong, answer = [json.loads(line) for line in out.getvalue().splitlines()]
    assert pong == {"type": "pong", "id": 7}
    assert answer["type"] == "action" and answer["id"] == 1 and answer["action"] in game.legal_actions(seat)


@pytest.mark.parametrize(
    "line, problem",
    [
        ('{"type": "act", "id": 1, "view": {}, "time_limit_ms": 5}', "before 'hello'"),
        (
            '{"type": "hello", "game": "coding", "players": 2, "options": {}, "seat": 0, "time_limit_ms": 5}',
            "not coding",
        ),
        ('{"type": "move"}', "type"),
        ("not json", "message"),
    ],
)
def test_serve_refuses_what_the_protocol_does_not_allow(line, problem):
    with pytest.raises(ProtocolError, match=problem):
        serve(agent_maker("coda", "easy", 0), io.StringIO(line + "\n"), io.StringIO())


def test_docs_embed_the_current_schemas():
    doc = (ROOT / "docs/protocol.md").read_text()
    embedded = doc.split("<!-- schemas -->\n```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(embedded) == json_schemas()


def test_docs_show_the_python_example_bot_verbatim():
    doc = (ROOT / "docs/protocol.md").read_text()
    assert "```python\n" + (ROOT / "examples/bots/coda_greedy.py").read_text() + "```" in doc
