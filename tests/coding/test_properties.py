"""Property tests: random play ends, replays match, junk changes nothing, views do not leak."""

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import codecrack
from codecrack import IllegalAction
from codecrack.games.coding.cards import all_code_texts, code_text, is_green, parse_code, rules_out
from codecrack.games.coding.rules import MODES

from .helpers import snapshot

SETTINGS = settings(max_examples=30, deadline=None)
games = st.tuples(st.sampled_from(MODES), st.integers(2, 4), st.integers(0, 2**31 - 1))


def random_action(game, rng: random.Random):
    """A seat to move and one of its legal actions, choosing the action type first (so that the
    540 decodes per target do not crowd out everything else)."""
    seat = rng.choice(sorted(game.to_move))
    legal = game.legal_actions(seat)
    kind = rng.choice(sorted({a["type"] for a in legal}))
    return seat, rng.choice([a for a in legal if a["type"] == kind])


def play(mode, players, seed, each_step=None, max_steps=3000):
    game = codecrack.new_game("coding", players=players, seed=seed, mode=mode)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if game.over:
            return game
        seat, action = random_action(game, rng)
        game.apply(seat, action)
        if each_step is not None:
            each_step(game, rng)
    raise AssertionError(f"{mode} with {players} players did not end")


@SETTINGS
@given(games)
def test_random_legal_play_always_ends(params):
    game = play(*params)
    result = game.result
    assert result["winners"] and all(0 <= s < game.players for s in result["winners"])
    spectator = game.view(None)
    assert all(sheet["code"] == code for sheet, code in zip(spectator["sheets"], result["codes"]))
    json.dumps(spectator)


@settings(max_examples=15, deadline=None)
@given(games)
def test_a_replayed_record_gives_the_same_view_for_every_seat_at_every_step(params):
    seen = []
    game = play(*params, each_step=lambda g, rng: seen.append(snapshot(g)))
    record = json.loads(json.dumps(game.record()))
    again = codecrack.new_game("coding", players=record["players"], seed=record["seed"], **record["options"])
    for (seat, action), expected in zip(record["actions"], seen):
        again.apply(seat, action)
        assert snapshot(again) == expected


JUNK = st.one_of(
    st.dictionaries(
        st.sampled_from(["type", "card", "to", "target", "code", "x1", "x2", "codes"]),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-3, 120),
            st.text(max_size=4),
            st.sampled_from(
                [
                    "take",
                    "give",
                    "decode",
                    "reveal",
                    "answer",
                    "order",
                    "slap",
                    "pass",
                    "stop",
                    "cannot",
                    "timeout",
                    "A-B",
                    "x1",
                    "D57",
                ]
            ),
            st.lists(st.integers(0, 9), max_size=2),
            st.dictionaries(st.sampled_from(["0", "1", "2", "9", "²", "x"]), st.text(max_size=4)),
        ),
        max_size=4,
    ),
    st.none(),
    st.integers(),
    st.text(max_size=5),
)


@settings(max_examples=30, deadline=None)
@given(games, st.lists(JUNK, min_size=5, max_size=5), st.integers(0, 400))
def test_junk_and_illegal_actions_never_change_the_state(params, junk, stop_at):
    mode, players, seed = params
    game = codecrack.new_game("coding", players=players, seed=seed, mode=mode)
    rng = random.Random(seed)
    for _ in range(stop_at):
        if game.over:
            break
        game.apply(*random_action(game, rng))
    seats = list(range(players))
    for action in junk:
        before = snapshot(game)
        try:
            game.apply(rng.choice(seats), action)
        except IllegalAction:
            assert snapshot(game) == before
        else:
            break  # junk that happens to be legal is a real move: stop there


def _fits(sheet, code) -> bool:
    """Would ``code`` have produced every public fact about ``sheet``?"""
    return (
        all(sheet.code[p] == code[p] for p in sheet.revealed)
        and all(rules_out(kind, code) for kind in sheet.data)
        and all(not rules_out(kind, code) for offered in sheet.cannot for kind in offered)
        and all(is_green(h["card"], code) == h["green"] for h in sheet.hacks)
        and all(w["code"] != code_text(code) for w in sheet.wrong)
    )


def _swap_into_pile(world, old: list, new: list) -> None:
    """Put the cards of ``old`` that ``new`` no longer uses where ``new``'s cards were in the pile."""
    freed = [x for x in old if x not in new]
    for value in (x for x in new if x not in old):
        kind = "letter" if isinstance(value, str) else "digit"
        index = world.pile.index((kind, value))
        world.pile[index] = (kind, next(x for x in freed if isinstance(x, str) == (kind == "letter")))
        freed.remove(world.pile[index][1])


def alternative_world(game, seat: int, rng: random.Random):
    """A copy of ``game`` that differs only in what ``seat`` cannot know."""
    world = copy.deepcopy(game)
    rng.shuffle(world.hack_deck)
    rng.shuffle(world.pile)
    for other in (s for s in range(game.players) if s != seat):
        sheet = world.sheets[other]
        if other in world.pending_reveals:
            world.pending_reveals[other] = rng.choice(sheet.hidden(("x1", "x2")))
        for target in world.answers[other]:
            world.answers[other][target] = parse_code(rng.choice(all_code_texts()))
        pool_letters = {sheet.letter} | {v for k, v in world.pile if k == "letter"}
        pool_digits = set(sheet.digits) | {v for k, v in world.pile if k == "digit"}
        options = [
            parse_code(text)
            for text in all_code_texts()
            if text[0] in pool_letters and int(text[1]) in pool_digits and int(text[2]) in pool_digits
        ]
        if sheet.code is not None:
            options = [code for code in options if code != sheet.code and _fits(sheet, code)]
        if not options:
            continue
        code = rng.choice(options)
        _swap_into_pile(world, [sheet.letter, *sheet.digits], [code["letter"], code["x1"], code["x2"]])
        sheet.letter, sheet.digits = code["letter"], sorted([code["x1"], code["x2"]])
        if sheet.code is not None:
            sheet.code = code
    return world


@settings(max_examples=25, deadline=None)
@given(games)
def test_views_do_not_leak_what_a_seat_cannot_know(params):
    def check(game, rng):
        if rng.random() < 0.2:
            for seat in range(game.players):
                view = game.view(seat)
                assert alternative_world(game, seat, rng).view(seat) == view
                assert json.loads(json.dumps(view)) == view

    play(*params, each_step=check)


def test_alternative_worlds_really_differ():
    game = codecrack.new_game("coding", players=3, seed=4)
    world = alternative_world(game, 0, random.Random(1))
    assert [s.letter for s in world.sheets] != [s.letter for s in game.sheets] or [s.digits for s in world.sheets] != [
        s.digits for s in game.sheets
    ]
    assert world.view(1) != game.view(1)
