"""The Coding's AI tiers: they finish every mode, act legally, and decide from the view alone."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

import codecrack
from codecrack.agents import make_agent
from codecrack.core.runner import next_actor, run_game
from codecrack.games.coding.agents import AGENTS, HARD
from codecrack.games.coding.belief import CODES, code_index
from codecrack.games.coding.reading import facts_from_view, own_code

TIERS = ["hard", "medium", "easy", "medium"]


@pytest.mark.parametrize("mode", ["counter", "counter-revised", "speed", "one-shot"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tiers_finish_every_mode(mode, players):
    game = codecrack.new_game("coding", players=players, seed=players * 11, mode=mode)
    agents = {seat: make_agent(TIERS[seat], "coding", seed=seat) for seat in range(players)}
    run = run_game(game, agents)  # every action is checked by the engine
    assert run.game.over
    if mode == "one-shot":
        assert len(run.game.result["scores"]) == players


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_no_tier_repeats_a_decode_it_was_told_is_wrong(tier):
    """Issue 9: easy decoded "B01: wrong" twice. A forgetful tier still remembers its own misses."""
    for seed in range(3):
        game = codecrack.new_game("coding", players=3, seed=seed, mode="counter")
        run_game(game, {seat: AGENTS[tier](seed=seed * 10 + seat) for seat in range(3)})
        wrong = set()
        for event in game.history:
            if event["type"] == "decode":
                guess = (event["seat"], event["target"], event["code"])
                assert guess not in wrong, f"seed {seed}: seat {guess[0]} repeated {guess[2]}"
                if not event["correct"]:
                    wrong.add(guess)


def test_settings_override_the_tier():
    agent = AGENTS["hard"](seed=1, reaction_delay=0.5, slap_at=0.9)
    assert agent.reaction_delay == 0.5 and agent.style.slap_at == 0.9
    assert AGENTS["hard"](seed=1).reaction_delay == HARD.reaction_delay == 2.5
    assert AGENTS["easy"]().reaction_delay > AGENTS["medium"]().reaction_delay > HARD.reaction_delay


def test_one_shot_answers_are_the_per_symbol_argmax():
    game = codecrack.new_game("coding", players=3, seed=8, mode="one-shot")
    agents = {seat: AGENTS["hard"](seed=seat) for seat in range(3)}
    while game.step != "answers":
        seat = next_actor(game, agents)
        game.apply(seat, agents[seat].act(game.view(seat)))
    view = game.view(0)
    belief, seats = facts_from_view(view).belief(0, own_code(view))
    action = agents[0].act(view)
    for index, seat in enumerate(seats):
        marginals = belief.marginals(index)
        answer = action["codes"][str(seat)]
        assert marginals["letter"][ord(answer[0]) - ord("A")] == max(marginals["letter"])


def consistent_alternative(game, seat: int, rng: random.Random):
    """A copy of ``game`` whose hidden values (other codes, leftover and hack decks) differ
    but agree with everything ``seat`` can see."""
    view = game.view(seat)
    belief, seats = facts_from_view(view).belief(seat, own_code(view))
    hidden = [s for s in seats if not all(v is not None for v in view["sheets"][s]["revealed"].values())]
    for _ in range(5000):
        picks = {s: CODES[rng.choices(range(540), weights=belief.probs[i])[0]] for i, s in enumerate(seats)}
        symbols = [x for code in picks.values() for x in code] + list(own_code(view))
        changed = any(picks[s] != tuple(game.sheets[s].code.values()) for s in hidden)
        if len(set(symbols)) == len(symbols) and changed:
            break
    else:
        return None
    twin = copy.deepcopy(game)
    for s, (letter, x1, x2) in picks.items():
        sheet = twin.sheets[s]
        sheet.letter, sheet.digits, sheet.code = letter, sorted([x1, x2]), {"letter": letter, "x1": x1, "x2": x2}
    used_letters = {code[0] for code in picks.values()} | {own_code(view)[0]}
    used_digits = {d for code in picks.values() for d in code[1:]} | set(own_code(view)[1:])
    twin.pile = [("letter", x) for x in "ABCDEF" if x not in used_letters and x not in twin.table_letters]
    twin.pile += [("digit", d) for d in range(10) if d not in used_digits and d not in twin.table_digits]
    rng.shuffle(twin.pile)
    rng.shuffle(twin.hack_deck)
    return twin


@pytest.mark.parametrize("mode,players", [("counter", 4), ("speed", 3), ("one-shot", 4), ("counter-revised", 2)])
def test_decisions_ignore_what_the_seat_cannot_know(mode, players):
    rng = random.Random(players)
    game = codecrack.new_game("coding", players=players, seed=21, mode=mode)
    agents = {seat: make_agent(TIERS[seat], "coding", seed=seat) for seat in range(players)}
    checked = 0
    while not game.over:
        seat = next_actor(game, agents)
        if game.phase != "order" and rng.random() < 0.3:
            twin = consistent_alternative(game, seat, rng)
            if twin is not None:
                assert twin.view(seat) == game.view(seat)
                for name in ("easy", "medium", "hard"):
                    ours = make_agent(name, "coding", seed=5).act(game.view(seat))
                    theirs = make_agent(name, "coding", seed=5).act(twin.view(seat))
                    assert ours == theirs
                checked += 1
        game.apply(seat, agents[seat].act(game.view(seat)))
    assert checked >= 3


def test_careful_tiers_leak_less_than_random_takers():
    """Over a few games, hard's code is less exposed to onlookers than easy's after the rounds."""
    exposure = {"hard": [], "easy": []}
    for index in range(6):
        game = codecrack.new_game("coding", players=4, seed=100 + index, mode="counter")
        names = ["hard", "easy", "hard", "easy"]
        agents = {seat: make_agent(names[seat], "coding", seed=seat) for seat in range(4)}
        while game.phase in ("order", "hacking"):
            seat = next_actor(game, agents)
            game.apply(seat, agents[seat].act(game.view(seat)))
        public = facts_from_view(game.view(None)).public_belief()
        for seat, name in enumerate(names):
            mask = public.probs[seat] > 0
            exposure[name].append(np.log2(mask.sum()))
    assert np.mean(exposure["hard"]) > np.mean(exposure["easy"])


def sheet(seat, wrong=(), letter=None):
    return {
        "seat": seat,
        "data": [],
        "hacks": [],
        "cannot": [],
        "out": False,
        "revealed": {"letter": letter, "x1": None, "x2": None},
        "wrong_guesses": [{"target": 0, "code": code} for code in wrong],
    }


def chance_of(view, seat, which):
    """Seat 0's exact chance that ``seat``'s code satisfies ``which(code)``, reading guessers."""
    belief, seats = facts_from_view(view, guessers=True).belief(0, ("F", 8, 9))
    probs = belief.probs[seats.index(seat)]
    return sum(p for code, p in zip(CODES, probs) if which(code))


def test_a_wrong_decode_makes_the_named_symbols_unlikely_not_impossible():
    view = {"players": 2, "table": {"letters": [], "digits": []}, "sheets": [sheet(0), sheet(1, ["A12"])]}
    plain = facts_from_view(view)
    assert plain.masks[1].all() and not plain.masks[0][code_index("A", 1, 2)]
    named = chance_of(view, 1, lambda code: code[0] == "A" or {1, 2} & set(code[1:]))
    unread = sum(
        p
        for code, p in zip(CODES, plain.belief(0, ("F", 8, 9))[0].probs[0])
        if code[0] == "A" or {1, 2} & set(code[1:])
    )
    assert 0 < named < unread / 5  # a bluffer's real code keeps a chance


def test_a_guesser_shown_to_bluff_is_read_as_a_bluffer():
    def view(letter):
        return {
            "players": 2,
            "table": {"letters": [], "digits": []},
            "sheets": [sheet(0), sheet(1, ["A12", "B34"], letter=letter)],
        }

    uses_34 = lambda code: bool({3, 4} & set(code[1:]))  # noqa: E731
    honest_so_far, caught = chance_of(view("C"), 1, uses_34), chance_of(view("A"), 1, uses_34)
    assert caught > 2 * honest_so_far  # named its own A: its B34 was likely a bluff too


@pytest.mark.parametrize("letter,caught", [("A", True), ("C", False), (None, False)])
def test_a_player_shown_to_name_its_own_symbol_is_caught_bluffing(letter, caught):
    view = {
        "players": 3,
        "table": {"letters": [], "digits": []},
        "sheets": [sheet(0), sheet(1, ["A12"], letter=letter), sheet(2, ["B34"])],
    }
    facts = facts_from_view(view, guessers=True)
    belief, seats = facts.belief(0, ("F", 8, 9))
    assert facts.caught_bluffing(belief, seats) == caught
    assert facts.bluffer_chance(2, belief.probs[seats.index(2)]) < 0.5  # one unproven wrong decode


def test_hard_copes_with_players_who_name_their_own_symbols():
    # random players may decode with their own symbols: hard's reading is only a likelihood
    for seed in range(3):
        game = codecrack.new_game("coding", players=3, seed=seed, mode="counter")
        agents = {
            0: make_agent("hard", "coding", seed=0),
            1: make_agent("random", "coding", seed=1),
            2: make_agent("random", "coding", seed=2),
        }
        assert run_game(game, agents).game.over
