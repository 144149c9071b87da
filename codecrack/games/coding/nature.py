"""The Coding's declared nature (see :mod:`codecrack.core.nature`) for each player count and options.

>>> from codecrack.games.coding.rules import CodingOptions
>>> nature = declare(2, CodingOptions())
>>> sorted(nature.dynamics), nature.utility, nature.chance
(['sequential', 'simultaneous'], 'win_share', ('first', 'letters', 'digits', 'pile', 'hack deck'))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.nature import ActionSpace, Dynamics, Nature
from .cards import DATA_TYPES, DIGITS, LETTERS, NUMBER_POSITIONS, POSITIONS, all_code_texts, load_deck

HACKING_ROUNDS = {"one-shot": 5}
WRONG_DECODES = 3


def action_templates(players: int, options: Any, deck_size: int) -> list[dict[str, Any]]:
    """Every action The Coding can offer in this configuration, in a fixed order."""
    codes = all_code_texts()
    return [
        *({"type": "order", "x1": a, "x2": b} for a in DIGITS for b in DIGITS if a != b),
        *({"type": "take", "card": kind} for kind in DATA_TYPES),
        {"type": "cannot"},
        *({"type": "give", "card": card, "to": to} for card in range(deck_size) for to in range(players)),
        *({"type": "decode", "target": target, "code": code} for target in range(players) for code in codes),
        {"type": "stop"},
        *({"type": "reveal", "card": position} for position in POSITIONS),
        {"type": "slap"},
        {"type": "pass"},
        {"type": "timeout"},
        *({"type": "answer", "codes": {str(target): code}} for target in range(players) for code in codes),
    ]


def game_length(players: int, mode: str, deck_size: int) -> int:
    """Actions in a game at most: ordering, two per hacking turn, then the mode's second phase."""
    stacks = 1 if players == 2 else 2
    hacking = players + 2 * players * HACKING_ROUNDS.get(mode, 4)
    if mode == "one-shot":
        return hacking + players * (players - 1)
    leftover = len(LETTERS) + len(DIGITS) - 3 * players
    if mode == "speed":
        cycles = leftover + len(POSITIONS) + players  # deals, reveal rounds, wrong slaps
        return hacking + cycles * (players + 2)
    hack_turns = len(DATA_TYPES) * stacks + deck_size  # each takes a data card or passes a hack card
    decodes = players * (WRONG_DECODES + 1 + (WRONG_DECODES - 1) + 1)  # wrong, right, penalty, stop
    stalemates = leftover + len(NUMBER_POSITIONS)  # deals, then rounds of number-card reveals
    # Between two changes (a hack, a decode, a stalemate step) every remaining player passes at most once.
    passes = players * (hack_turns + decodes + stalemates + 1)
    return hacking + 2 * hack_turns + decodes + passes + players * len(NUMBER_POSITIONS)


class DecodeMask:
    """The ``legal_mask`` fast path: where a step offers every code for each target (decoding,
    the speed mode's answer, one-shot answers), each target's codes are one run of slots, set by
    arithmetic; the step's few other actions, and the other steps, go through the action space."""

    def __init__(self, space: ActionSpace) -> None:
        first = all_code_texts()[0]
        self.space, self.codes = space, len(all_code_texts())
        self.first_decode = space.index({"type": "decode", "target": 0, "code": first})
        self.first_answer = space.index({"type": "answer", "codes": {"0": first}})

    def __call__(self, game: Any, seat: int) -> np.ndarray:
        step = game.step
        if step == "choose":
            besides, targets, first = (
                game.hack_openings(seat) + game.stop_actions(),
                game.decode_targets(seat),
                self.first_decode,
            )
        elif step == "answer":
            besides, targets, first = [{"type": "timeout"}], game.decode_targets(seat), self.first_decode
        elif step == "answers":
            besides, targets, first = [], game.unanswered(seat), self.first_answer
        else:
            return self.space.mask(game.legal_actions(seat))
        mask = self.space.mask(besides)
        for target in targets:
            start = first + target * self.codes
            mask[start : start + self.codes] = 1
        return mask


def declare(players: int, options: Any) -> Nature:
    deck_size = len(load_deck(options.deck))
    dynamics: set[Dynamics] = {"sequential", "simultaneous"}
    if options.mode == "speed":
        dynamics.add("real_time")
    chance = ("first",) if options.first is None else ()
    one_shot = options.mode == "one-shot"
    actions = ActionSpace(action_templates(players, options, deck_size))
    return Nature(
        dynamics=frozenset(dynamics),
        actions=actions,
        max_length=game_length(players, options.mode, deck_size),
        utility="score" if one_shot else "win_share",
        chance=chance + ("letters", "digits", "pile", "hack deck"),
        max_chance_outcomes=max(players, len(DIGITS), len(LETTERS) + len(DIGITS), deck_size),
        max_utility=len(POSITIONS) * (players - 1) if one_shot else 1.0,
        real_time=racing if options.mode == "speed" else None,
        legal_mask=DecodeMask(actions),
    )


def racing(game: Any) -> bool:
    """Speed mode's open step: every remaining seat may slap, and the first slap wins."""
    return bool(game.step == "open")
