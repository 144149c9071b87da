"""The Coding's AI players: ``easy``, ``medium`` and ``hard``.

Each tier is one :class:`Style` played by :class:`CodingAgent`. The agent reads only the view
it is given (:mod:`.reading`), builds beliefs about the other codes and scores its choices
with :mod:`.tactics`.

| tier | beliefs | data card | hack card | decode / slap |
|---|---|---|---|---|
| easy | each opponent alone, cards on the table only | random | random | at 40% / 45% |
| medium | each opponent alone, every public fact | fewest own candidates lost | most bits | at 60% / 60% |
| hard | exact joint posterior | least public probability lost | bits minus own leak | from 40%, earlier when exposed / 50% |

The full table and the reasons are in ``docs/ai.md`` (The Coding).

>>> import codecrack
>>> from codecrack.core.runner import run_game
>>> game = codecrack.new_game("coding", players=3, seed=4, mode="one-shot")
>>> agents = {seat: AGENTS[name](seed=seat) for seat, name in enumerate(["hard", "medium", "easy"])}
>>> run_game(game, agents).game.over
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...core.agent import Agent, MoveCost
from .belief import code_index, symbol_bits, uses_none
from .facts import Code, Facts
from .reading import View, facts_from_view, live_opponents, my_code, revealed_symbols
from .tactics import (
    best_answer,
    code_text,
    exposure_after,
    information_gain,
    kept_mass,
    reveal_cost,
    score_gain,
)

Action = dict[str, Any]


@dataclass(frozen=True)
class Style:
    """How one tier thinks. Thresholds are probabilities that a decode is right."""

    name: str
    joint: bool  # exact joint posterior, or each opponent on its own
    spoken: bool  # use "cannot take" declarations and wrong decodes
    careful: bool  # choose data cards and reveals to leak little (else at random)
    exact_leak: bool  # measure leaks with the public joint posterior (else candidate counts)
    give: str  # "best", "bits" or "random": how hack cards are aimed (see choose_give)
    decode_at: float  # counter modes: decode when the best code is this likely
    last_strike_at: float  # ... when one more wrong decode would put us out
    slap_at: float  # speed: slap when the best code is this likely
    reaction_delay: float  # seconds, for real-time play against humans
    adaptive: bool = False  # decode earlier when onlookers are close to decoding us
    read_guessers: bool = False  # a wrong decoder likely holds none of the symbols they named


EASY = Style(
    "easy",
    joint=False,
    spoken=False,
    careful=False,
    exact_leak=False,
    give="random",
    decode_at=0.4,
    last_strike_at=0.6,
    slap_at=0.45,
    reaction_delay=6.0,
)
MEDIUM = Style(
    "medium",
    joint=False,
    spoken=True,
    careful=True,
    exact_leak=False,
    give="bits",
    decode_at=0.6,
    last_strike_at=0.9,
    slap_at=0.6,
    reaction_delay=4.0,
)
HARD = Style(
    "hard",
    joint=True,
    spoken=True,
    careful=True,
    exact_leak=True,
    give="best",
    decode_at=0.4,
    last_strike_at=0.75,
    slap_at=0.5,
    reaction_delay=2.5,
    adaptive=True,
    read_guessers=True,
)


@dataclass
class Reading:
    """What the agent made of one view."""

    view: View
    facts: Facts
    me: int
    mine: tuple[str, int, int]
    beliefs: dict[int, np.ndarray]  # live opponent -> probability of each code

    def best_decode(self) -> tuple[float, int, int]:
        """(probability, target, code) of the most likely decode."""
        return max((float(p.max()), seat, int(np.argmax(p))) for seat, p in self.beliefs.items())


class CodingAgent(Agent):
    """A tier of The Coding's AI; ``settings`` override the tier's :class:`Style` fields."""

    def __init__(self, style: Style, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed)
        self.style = replace(style, **settings)
        self.name = self.style.name
        self.reaction_delay = self.style.reaction_delay

    # -- reading the view -------------------------------------------------------------------
    def read(self, view: View) -> Reading:
        me, mine = view["seat"], my_code(view)
        facts = facts_from_view(view, spoken=self.style.spoken, guessers=self.style.read_guessers)
        opponents = live_opponents(view)
        if not self.style.joint:
            return Reading(view, facts, me, mine, {s: self._alone(view, facts, s, mine) for s in opponents})
        belief, seats = facts.belief(me, mine)
        if self.style.read_guessers and facts.caught_bluffing(belief, seats):
            facts = facts_from_view(view, spoken=self.style.spoken)  # someone bluffs: read no wrong decodes
            belief, seats = facts.belief(me, mine)
        beliefs = {s: belief.probs[i] for i, s in enumerate(seats) if s in opponents}
        return Reading(view, facts, me, mine, beliefs)

    @staticmethod
    def _alone(view: View, facts: Facts, seat: int, mine: Code) -> np.ndarray:
        """One opponent on their own: their facts, minus every symbol seen elsewhere."""
        letters, digits = revealed_symbols(view, except_seat=seat)
        seen = facts.unused_bits | symbol_bits(mine[0], mine[1:]) | symbol_bits(letters, digits)
        mask = facts.masks[seat] & uses_none(seen)
        if not mask.any():
            mask = facts.masks[seat]
        alone: np.ndarray = mask / mask.sum()
        return alone

    def public_view_of_me(self, reading: Reading) -> np.ndarray:
        """What onlookers can deduce about my code (exactly, or as a flat candidate count)."""
        if self.style.exact_leak:
            exact: np.ndarray = reading.facts.public_belief().probs[reading.me]
            return exact
        mask = reading.facts.masks[reading.me].astype(float)
        flat: np.ndarray = mask / mask.sum()
        return flat

    # -- acting -----------------------------------------------------------------------------
    def act(self, view: View) -> Action:
        legal = view["legal_actions"]
        step = view["step"]
        if step == "order":
            return self.rng.choice(legal)  # either order equally often: what beliefs assume
        reading = self.read(view)
        handler: Callable[[Reading, list[Action]], Action] = {
            "data": self.choose_data,
            "give": self.choose_give,
            "choose": self.choose_turn,
            "penalty": self.choose_reveal,
            "stalemate": self.choose_reveal,
            "open": self.choose_slap,
            "answer": self.choose_speed_decode,
            "answers": self.choose_answers,
        }[step]
        return handler(reading, legal)

    def choose_data(self, reading: Reading, legal: list[Action]) -> Action:
        takes = [a for a in legal if a["type"] == "take"]
        if not takes:
            return next(a for a in legal if a["type"] in ("cannot", "give"))
        if not self.style.careful:
            return self.rng.choice(takes)
        public = self.public_view_of_me(reading)
        return max(takes, key=lambda a: (kept_mass(public, a["card"]), self.rng.random()))

    def choose_give(self, reading: Reading, legal: list[Action]) -> Action:
        gives = [a for a in legal if a["type"] == "give"]
        if self.style.give == "random":
            return self.rng.choice(gives)
        cards = {c["id"]: c for c in reading.view["hack_row"]}
        shield: dict[int, float]
        if self.style.give == "bits":
            gain, shield = information_gain, {}
        elif reading.view["options"]["mode"] == "one-shot":
            gain, shield = score_gain, {}
        else:
            gain, shield = information_gain, self.shield(reading, cards)

        def value(action: Action) -> tuple[float, float]:
            card = cards[action["card"]]
            found = gain(reading.beliefs[action["to"]], card["position"], card["values"])
            return (round(found - shield.get(action["card"], 0.0), 9), self.rng.random())

        return max(gives, key=value)

    def shield(self, reading: Reading, cards: dict[int, dict[str, Any]]) -> dict[int, float]:
        """For each card I might pass: the bits the worst card left in the row could leak about me.

        Passing a card removes it from the row, so the cards that would say most about my own
        code are best passed to someone else.
        """
        sheet = reading.view["sheets"][reading.me]
        limit = reading.view.get("hack_limit")
        if limit is not None and len(sheet["hacks"]) >= limit:
            return {}
        public = self.public_view_of_me(reading)
        mine = code_index(*reading.mine)
        now = float(public[mine])
        leak = {
            cid: float(np.log2(exposure_after(public, mine, c["position"], c["values"]) / now))
            for cid, c in cards.items()
        }
        return {cid: max([bits for other, bits in leak.items() if other != cid], default=0.0) for cid in cards}

    def decode_threshold(self, reading: Reading) -> float:
        style = self.style
        sheet = reading.view["sheets"][reading.me]
        if sheet["wrong_decodes"] >= 2:
            return style.last_strike_at
        threshold = style.decode_at
        if style.adaptive:  # the more likely onlookers find my true code, the sooner I strike
            exposure = float(self.public_view_of_me(reading)[code_index(*reading.mine)])
            threshold -= min(0.25, exposure)
        return threshold

    def choose_turn(self, reading: Reading, legal: list[Action]) -> Action:
        p, target, code = reading.best_decode()
        decode = {"type": "decode", "target": target, "code": code_text(code)}
        hacks = [a for a in legal if a["type"] in ("take", "cannot", "give")]
        if not hacks and not any(a["type"] == "stop" for a in legal):
            return decode
        if p >= self.decode_threshold(reading):
            return decode
        if any(a["type"] == "stop" for a in legal):
            return {"type": "stop"}
        if any(a["type"] == "give" for a in hacks):
            return self.choose_give(reading, hacks)
        return self.choose_data(reading, hacks)

    def choose_reveal(self, reading: Reading, legal: list[Action]) -> Action:
        if not self.style.careful:
            return self.rng.choice(legal)
        public = self.public_view_of_me(reading)
        mine = code_index(*reading.mine)
        return min(legal, key=lambda a: (reveal_cost(public, mine, a["card"]), self.rng.random()))

    def choose_slap(self, reading: Reading, legal: list[Action]) -> Action:
        p, _, _ = reading.best_decode()
        passes = [a for a in legal if a["type"] == "pass"]
        if passes and p < self.style.slap_at:
            return passes[0]
        return {"type": "slap"}

    def choose_speed_decode(self, reading: Reading, legal: list[Action]) -> Action:
        _, target, code = reading.best_decode()
        return {"type": "decode", "target": target, "code": code_text(code)}

    def choose_answers(self, reading: Reading, legal: list[Action]) -> Action:
        answers = {str(seat): best_answer(probs)[0] for seat, probs in reading.beliefs.items()}
        return {"type": "answer", "codes": answers}


def _factory(style: Style) -> Callable[..., CodingAgent]:
    def make(seed: int = 0, **settings: Any) -> CodingAgent:
        return CodingAgent(style, seed=seed, **settings)

    make.__name__ = f"make_{style.name}"
    make.__doc__ = f"The {style.name} tier of The Coding (settings override its Style fields)."
    return make


AGENTS = {style.name: _factory(style) for style in (EASY, MEDIUM, HARD)}


# Measured by ``codecrack bench move-cost --game coding -o players=P --json`` (and ``-o memory=true``
# for the peak), 5 Dec 2026: docs/security.md, "Coda and The Coding's bots".
MOVE_COST = MoveCost(
    read={"mode": ("counter-revised", "counter", "speed", "one-shot"), "notes": (True, False)},
    unread={"answer_window": "speed mode's time to answer: a wait, not work", "first": "who starts"},
    dearest=(0.7, 0.012),
)
