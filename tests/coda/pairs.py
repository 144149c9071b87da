"""Pairs of Coda games that differ only in what one seat may not know, played in lock-step.

Game B deals the same places as game A, but with a few tile labels exchanged (within a colour:
a value for another value, or a dash for a number). The exchanged labels are never in the
watching seat's opening hand, so B differs from A in the other seats' values, in which of their
tiles is a dash, in the deal order and (deck) in the order of the deck. Both games are then
driven step by step:

* the watching seat plays the same action in both (its views must be the same, so must its
  choices);
* another seat may play different actions in A and B where its own knowledge differs: where it
  puts an opening dash (or whether it has one), and its choices are steered so that everything
  the rules make public turns out the same in both: a guess hits in both or misses in both, a
  revealed value is the same, a tile lands at the same index.

After every step the *facts* the rules make public (read from the game's truth, never from a
view: colours, positions, face-up values, hits, who is out) and the watching seat's own secrets
are compared. While they agree, ``view(seat)`` must be byte-identical in A and B (ids, phase,
who is to move, legal actions and history included), and every AI tier must decide the same.
When a public fact differs (the watching seat drew an exchanged tile, say) the pair has
legitimately come apart and the run ends there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from codecrack.agents import make_agent
from codecrack.core.errors import IllegalAction
from codecrack.games.coda import rules
from codecrack.games.coda.rules import CodaGame
from codecrack.games.coda.tiles import DASH, full_set

Label = tuple[str, Any]
Swaps = dict[Label, Label]
SKIP = None  # a step a seat takes in only one of the two games (a private arrangement)
TIERS = ("random", "easy", "medium", "hard")
TURN_PHASES = {"draw", "guess", "place", "reveal"}


def relabelled_set(swaps: Swaps) -> Callable[[bool], list]:
    """``full_set`` with the labels in ``swaps`` exchanged: the same places, other values."""

    def tiles(dashes: bool) -> list:
        made = full_set(dashes)
        for tile in made:
            tile.color, tile.value = swaps.get((tile.color, tile.value), (tile.color, tile.value))
        return made

    return tiles


class RelabelledCoda(CodaGame):
    """Coda dealt from a relabelled tile set (every round); otherwise the real engine."""

    def __init__(self, swaps: Swaps, **kwargs: Any) -> None:
        self.swaps = swaps
        super().__init__(**kwargs)

    def _start_round(self, first: int) -> None:
        with mock.patch.object(rules, "full_set", relabelled_set(self.swaps)):
            super()._start_round(first)


@dataclass
class Case:
    """One pair: the table, the watching seat, and the seed of the steering choices."""

    players: int
    seed: int
    options: dict[str, Any]
    seat: int
    plan_seed: int
    timeouts: bool = True

    def __str__(self) -> str:
        return f"{self.players}p seed={self.seed} seat={self.seat} plan={self.plan_seed} {self.options}"


@dataclass
class Run:
    """What a pair run did: the steps applied (seat, action in A, action in B) and what it saw."""

    case: Case
    swaps: Swaps
    steps: list[tuple[int, Any, Any]] = field(default_factory=list)
    compared: int = 0
    decisions: int = 0
    seen: set[str] = field(default_factory=set)
    ended: str = ""


def plan_openings(case: Case, rng: random.Random) -> list[tuple[int, dict[str, Any]]]:
    """Classic: every seat's opening (the watching seat first, so that it takes the same places of
    the pile in both games); deck: none."""
    probe = CodaGame(players=case.players, seed=case.seed, **case.options)
    plan = []
    for seat in sorted(range(case.players), key=lambda s: s != case.seat):
        if probe.phase != "opening":
            break
        opening = rng.choice(probe.legal_actions(seat))
        probe.apply(seat, opening)
        plan.append((seat, opening))
    return plan


def dealt(case: Case, openings: list[tuple[int, dict[str, Any]]], swaps: Swaps) -> tuple[CodaGame, CodaGame]:
    """Games A and B after the opening deal."""
    a = CodaGame(players=case.players, seed=case.seed, **case.options)
    b = RelabelledCoda(swaps, players=case.players, seed=case.seed, **case.options)
    for seat, opening in openings:
        a.apply(seat, opening)
        b.apply(seat, opening)
    return a, b


def deal_pair(case: Case, rng: random.Random) -> tuple[Swaps, list[tuple[int, dict[str, Any]]]]:
    """Label exchanges (and the openings) that leave the deal looking the same to the watching
    seat, when some of a few random tries do."""
    openings = plan_openings(case, rng)
    a, _ = dealt(case, openings, {})
    known = {(t.color, t.value) for t in a.rows[case.seat] + a.unplaced[case.seat]}
    for _ in range(30):
        swaps = choose_swaps(case, known, rng)
        a, b = dealt(case, openings, swaps)
        if facts_agree(public_facts(a, case.seat), public_facts(b, case.seat)):
            break
    return swaps, openings


def choose_swaps(case: Case, known: set[Label], rng: random.Random) -> Swaps:
    """One or two exchanges of labels the watching seat does not hold; with dashes, usually a
    dash for a number."""
    swaps: Swaps = {}
    free = [t for t in full_set(bool(case.options.get("dashes"))) if (t.color, t.value) not in known]
    for _ in range(rng.choice([1, 2])):
        dashes = [t for t in free if t.value == DASH and (t.color, t.value) not in swaps]
        if dashes and rng.random() < 0.7:
            first = rng.choice(dashes)
        else:
            first = rng.choice([t for t in free if (t.color, t.value) not in swaps])
        partners = [t for t in free if t.color == first.color and t is not first and (t.color, t.value) not in swaps]
        if not partners:
            continue
        second = rng.choice(partners)
        a, b = (first.color, first.value), (second.color, second.value)
        swaps[a], swaps[b] = b, a
    return swaps


def public_facts(game: CodaGame, seat: int) -> dict[str, Any]:
    """What the rules let ``seat`` know, read from the truth: rows (colours, face-up values,
    its own values while it may see them), the drawn tile, hits, who is out, the result."""
    own = not (game.options.memory and seat in game.ready)
    rows = []
    for owner, row in enumerate(game.rows):
        visible = owner == seat or game.shown[owner]
        rows.append(
            [(t.color, t.revealed, t.value if t.revealed or (owner == seat and own) else None) for t in row]
            if visible
            else None
        )
    drawn = game.drawn
    drawn_fact = None
    if drawn is not None:
        sees = game.current == seat or game.drawn_face_up
        drawn_fact = (drawn.color, drawn.value if sees else None)
    return {
        "rows": rows,
        "drawn": drawn_fact,
        "eliminated": list(game.eliminated),
        "scores": list(game.scores),
        "unplaced": [(t.color, t.value) for t in game.unplaced[seat]],
        "winners": game.result and game.result["winners"],
    }


def facts_agree(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two fact sets agree. Rows of different lengths and a drawn tile held in one game
    only are flow differences, which the view comparison judges; they are not compared here."""
    for row_a, row_b in zip(a["rows"], b["rows"]):
        if row_a is not None and row_b is not None and len(row_a) == len(row_b) and row_a != row_b:
            return False
    if a["drawn"] is not None and b["drawn"] is not None and a["drawn"] != b["drawn"]:
        return False
    return all(a[key] == b[key] for key in ("eliminated", "scores", "unplaced", "winners"))


def legal(game: CodaGame, seat: int, timeouts: bool) -> list[Any]:
    actions = game.legal_actions(seat)
    if timeouts and game.options.clock and game.phase in TURN_PHASES and seat == game.current:
        actions = actions + [{"type": "timeout"}]
    return actions


def true_hits(a: CodaGame, b: CodaGame, seat: int) -> list[dict[str, Any]]:
    """Guesses that hit in both games (tiles whose truth is the same in A and B)."""
    found = []
    for target in a._targets(seat):
        for index, (x, y) in enumerate(zip(a.rows[target], b.rows[target])):
            if not x.revealed and not y.revealed and (x.color, x.value) == (y.color, y.value):
                found.append({"type": "guess", "target": target, "index": index, "color": x.color, "value": x.value})
    return found


def candidates(
    a: CodaGame, b: CodaGame, mover: int, watcher: int, rng: random.Random, timeouts: bool
) -> list[tuple[Any, Any]]:
    """Action pairs worth trying for ``mover``, the likeliest to keep the pair together first."""
    in_a, in_b = legal(a, mover, timeouts), legal(b, mover, timeouts)
    rng.shuffle(in_a)
    if mover == watcher:
        pairs = [(x, x) for x in in_a]
    else:
        pairs = [(x, x) for x in in_a if x in in_b]
        kinds_a, kinds_b = {x["type"] for x in in_a}, {x["type"] for x in in_b}
        if a.phase == b.phase == "setup":  # a private arrangement: the two may differ, or happen in one game only
            rng.shuffle(in_b)
            pairs += [(x, y) for x in in_a[:12] for y in in_b[:12] if x != y and x["type"] == y["type"]]
            pairs += [(x, SKIP) for x in in_a if x["type"] == "place" and "place" not in kinds_b]
            pairs += [(SKIP, y) for y in in_b if y["type"] == "place" and "place" not in kinds_a]
    hits = [(g, g) for g in true_hits(a, b, mover) if g in in_a]
    stops = [(x, y) for x, y in pairs if x is not SKIP and x["type"] == "stop"]
    rng.shuffle(hits)
    first = []
    if hits and rng.random() < 0.6:
        first.append(hits[0])
    if stops and rng.random() < 0.5:
        first.insert(0, stops[0])
    late_timeouts = [(x, y) for x, y in pairs if x is not SKIP and x["type"] == "timeout"]
    if late_timeouts and rng.random() < 0.1:
        first.insert(0, late_timeouts[0])
    rest = [p for p in pairs if p not in first and p not in late_timeouts]
    return first + rest[:40] + hits[1:4]


def landing(game: CodaGame, seat: int, drawn: Any) -> int | None:
    """Where the tile ``seat`` held as ``drawn`` stands now (``None``: still held, or none)."""
    if drawn is None:
        return None
    return next((i for i, tile in enumerate(game.rows[seat]) if tile is drawn), None)


def try_step(a: CodaGame, b: CodaGame, mover: int, pair: tuple[Any, Any], watcher: int) -> bool:
    """Whether the pair of actions is legal in both games and keeps the public facts equal
    (where a drawn tile landed included)."""
    a2, b2 = a.clone(), b.clone()
    held = a2.drawn, b2.drawn
    try:
        if pair[0] is not SKIP:
            a2.apply(mover, pair[0])
        if pair[1] is not SKIP:
            b2.apply(mover, pair[1])
    except IllegalAction:
        return False
    landed = landing(a2, mover, held[0]), landing(b2, mover, held[1])
    if None not in landed and landed[0] != landed[1]:
        return False
    return facts_agree(public_facts(a2, watcher), public_facts(b2, watcher))


def view_text(game: CodaGame, seat: int) -> str:
    return json.dumps(game.view(seat), sort_keys=True)


def first_difference(x: Any, y: Any, path: str = "view") -> str:
    """Where two JSON values first differ, for a readable failure."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in sorted(set(x) | set(y)):
            if x.get(key) != y.get(key):
                return first_difference(x.get(key), y.get(key), f"{path}[{key!r}]")
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for index, (p, q) in enumerate(zip(x, y)):
            if p != q:
                return first_difference(p, q, f"{path}[{index}]")
    return f"{path}: {json.dumps(x)[:300]} != {json.dumps(y)[:300]}"


def note_situations(run: Run, a: CodaGame, b: CodaGame, pair: tuple[Any, Any]) -> None:
    """Record which hidden differences the run has carried through a step."""
    x, y = pair
    if a.drawn is not None and b.drawn is not None and a.drawn.is_dash != b.drawn.is_dash:
        run.seen.add("drawn dash vs number")
        if x is not SKIP and x["type"] in ("stop", "place"):
            run.seen.add(f"{x['type']} with a dash in one game only")
    if any(bool(ha) != bool(hb) for ha, hb in zip(a.unplaced, b.unplaced)):
        run.seen.add("opening dash in one game only")
    if x != y:
        run.seen.add("different private actions")


def run_pair(case: Case, tiers: tuple[str, ...] = TIERS, max_steps: int = 150, hard_decisions: int = 2) -> Run:
    """Play the pair in lock-step until it ends or comes apart; assert the watching seat cannot
    tell the two games apart."""
    rng = random.Random(case.plan_seed)
    swaps, openings = deal_pair(case, rng)
    a = CodaGame(players=case.players, seed=case.seed, **case.options)
    b = RelabelledCoda(swaps, players=case.players, seed=case.seed, **case.options)
    run = Run(case, swaps)
    agents = {tier: (make_agent(tier, "coda", seed=3), make_agent(tier, "coda", seed=3)) for tier in tiers}
    asked = dict.fromkeys(tiers, 0)
    watcher = case.seat
    if not facts_agree(public_facts(a, watcher), public_facts(b, watcher)):
        run.ended = "apart"
        return run
    for _ in range(max_steps):
        if a.over:  # the end reveals every tile to everyone: only unfinished views must agree
            assert b.over and a.result["winners"] == b.result["winners"], f"{case} swaps={swaps}: ends differ"
            run.ended = "over"
            return run
        seen_a, seen_b = view_text(a, watcher), view_text(b, watcher)
        assert seen_a == seen_b, f"{case} swaps={swaps} after {run.steps[-3:]}: " + first_difference(
            json.loads(seen_a), json.loads(seen_b)
        )
        run.compared += 1
        if watcher in a.to_move:
            for tier, (for_a, for_b) in agents.items():
                if tier == "hard" and asked[tier] >= hard_decisions:
                    continue
                asked[tier] += 1
                run.decisions += 1
                decided = for_a.act(a.view(watcher)), for_b.act(b.view(watcher))
                assert decided[0] == decided[1], f"{tier} decides differently: {case} swaps={swaps}"
        if openings:
            mover, opening = openings.pop(0)
            pairs = [(opening, opening)]
        else:
            mover = rng.choice(sorted(a.to_move))
            pairs = candidates(a, b, mover, watcher, rng, case.timeouts)
        chosen = next((pair for pair in pairs if try_step(a, b, mover, pair, watcher)), None)
        if chosen is None:
            run.ended = "apart"
            return run
        note_situations(run, a, b, chosen)
        for game, action in zip((a, b), chosen):
            if action is not SKIP:
                game.apply(mover, action)
        run.steps.append((mover, *chosen))
    run.ended = "long"
    return run
