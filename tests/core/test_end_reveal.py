"""The end of a game reveals everything to everyone, and names the moves that decided it; agents
never see a finished view while they play."""

import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.runner import run_game


class Recording:
    """Wraps an agent and keeps every view it was shown."""

    def __init__(self, agent):
        self.agent, self.views = agent, []
        self.reaction_delay = agent.reaction_delay

    def act(self, view):
        self.views.append(view)
        return self.agent.act(view)


def finished(name: str, players: int, seed: int, **options):
    game = codecrack.new_game(name, players=players, seed=seed, **options)
    agents = {s: Recording(make_agent("random", name, seed=seed + s)) for s in range(players)}
    run_game(game, agents)
    return game, agents


def hidden_left(name: str, view: dict) -> list:
    """What a finished view still hides: it must be nothing."""
    if name == "coda":
        return [t for row in view["rows"] for t in row if t["value"] is None]
    if name == "coding":
        return [s["seat"] for s in view["sheets"] if s["code"] is None or None in s["revealed"].values()]
    makers = [0, 1] if view["mode"] == "duel" else [view["creator"]]
    declared = sum(e["type"] == "declared" for e in view["history"] if e["round"] == view["round"])
    unseen_declarations = [] if len(view["declarations"]) == declared else ["declarations"]
    return [s for s in makers if view["codes"][s] is None] + unseen_declarations


DECIDING = {
    "coda": {"guess", "reveal", "timeout"},
    "coding": {"decode", "answered", "timeout"},
    "alphacode": {"declared"},
}
CASES = [
    ("coda", 2, {}),
    ("coda", 4, {"dashes": True, "memory": True}),
    ("coda", 3, {"rounds": 3}),
    ("coding", 2, {}),
    ("coding", 4, {"mode": "speed"}),
    ("coding", 3, {"mode": "one-shot"}),
    ("alphacode", 2, {}),
    ("alphacode", 3, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_finished_view_shows_everything_to_every_seat_and_spectators(name, players, options, seed):
    game, agents = finished(name, players, seed, **options)
    for seat in [*range(players), None]:
        view = game.view(seat)
        assert hidden_left(name, view) == [], f"seat {seat} still misses something at the end"
        assert view["result"] == game.result
    assert all(view["result"] is None for agent in agents.values() for view in agent.views)
    decisive = game.result["decisive"]
    assert decisive, "a finished game names at least one decisive move"
    assert all(game.view(None)["history"][i]["type"] in DECIDING[name] for i in decisive)


def test_coda_decisive_moves_are_the_moves_that_put_each_player_out():
    game, _ = finished("coda", 3, 5)
    history = game.view(None)["history"]
    outs = [i for i, e in enumerate(history) if e["type"] == "eliminated"]
    assert len(game.result["decisive"]) == len(outs) == 2
    assert all(d < out for d, out in zip(game.result["decisive"], outs))


def test_the_coding_names_the_decode_that_ended_the_game():
    game, _ = finished("coding", 2, 3)
    history = game.view(None)["history"]
    last = game.result["decisive"][-1]
    assert history[last]["type"] == "decode" and history[-1]["type"] == "over"
    assert all(e["type"] in {"out", "over", "revealed"} for e in history[last + 1 :])


def test_alphacode_names_the_declarations_and_counts_the_questions_of_the_deciding_round():
    game, _ = finished("alphacode", 2, 4)
    history = game.view(None)["history"]
    last_round = [e for e in history if e["round"] == game.view(None)["round"]]
    assert [history[i] for i in game.result["decisive"]] == [e for e in last_round if e["type"] == "declared"]
    assert sum(game.result["questions"]) == sum(e["type"] == "answer" for e in last_round)
