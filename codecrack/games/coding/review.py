"""The Coding review: the data card taken (how likely onlookers then name your code), the hack
card passed (expected bits about the receiver, or expected symbols in one-shot), decoding or
waiting (the exact chance that the named code is right), the card turned up after a wrong
decode, and the one-shot answers (expected symbols right).

Beliefs are the seat's exact joint posterior from every public fact in its view and its own
code (:mod:`codecrack.games.coding.belief`); what onlookers know is the public posterior.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...i18n import N_, _
from ...review.core import BITS, CHANCE, EXPOSURE, SYMBOLS, Decision
from ...review.numbering import seat_number
from .belief import Inconsistent, code_index
from .reading import facts_from_view, live_opponents, my_code, own_code
from .tactics import (
    answer_score,
    best_answer,
    code_text,
    information_gain,
    kept_mass,
    reveal_cost,
    score_gain,
)

SURE = 0.999  # a decode at least this likely counts as certain
EXPOSURE_NOTE = N_("onlookers' chance of naming your code afterwards")


class Knowledge:
    """What the seat knows at one decision: its code, its beliefs, and onlookers' view of it."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.seat = view["seat"]
        self.code = my_code(view)
        self.facts = facts_from_view(view)
        belief, seats = self.facts.belief(self.seat, self.code)
        self.beliefs = {s: belief.probs[i] for i, s in enumerate(seats)}
        self.live = live_opponents(view)

    def public(self) -> np.ndarray:
        public: np.ndarray = self.facts.public_belief().probs[self.seat]
        return public

    def best_decode(self) -> tuple[float, int, int]:
        return max((float(self.beliefs[s].max()), s, int(np.argmax(self.beliefs[s]))) for s in self.live)


def decode_text(target: int, code: str) -> str:
    return _("decode seat {seat} as {code}").format(seat=seat_number(target), code=code)


class CodingReviewer:
    def __init__(self, seat: int) -> None:
        self.seat = seat

    def review(self, step: int, view: dict[str, Any], action: dict[str, Any]) -> list[Decision]:
        kind = action.get("type")
        if view.get("step") in ("order", "open") or own_code(view) is None:
            return []
        try:
            known = Knowledge(view)
        except Inconsistent:  # cannot happen with true public facts; a review then skips the step
            return []
        legal = view["legal_actions"]
        decisions = []
        if view["step"] == "choose" and kind != "decode":
            decisions.append(self.waited(step, known))
        if kind == "take" and len([a for a in legal if a["type"] == "take"]) > 1:
            decisions.append(self.data_card(step, known, action, legal))
        elif kind == "give":
            decisions.append(self.hack_card(step, known, action, legal))
        elif kind == "decode":
            decisions.append(self.decode(step, known, action))
        elif kind == "reveal" and len(legal) > 1:
            decisions.append(self.reveal(step, known, action, legal))
        elif kind == "answer":
            decisions.extend(self.answers(step, known, action))
        return decisions

    def data_card(self, step: int, known: Knowledge, action: dict[str, Any], legal: list[dict[str, Any]]) -> Decision:
        public, mine = known.public(), code_index(*known.code)
        exposure = {
            a["card"]: float(public[mine]) / max(kept_mass(public, a["card"]), 1e-12)
            for a in legal
            if a["type"] == "take"
        }
        best = min(exposure, key=exposure.__getitem__)
        return Decision.judge(
            step,
            N_("data card"),
            EXPOSURE,
            _("took {card}").format(card=action["card"]),
            exposure[action["card"]],
            _("take {card}").format(card=best),
            exposure[best],
            _(EXPOSURE_NOTE),
        )

    def hack_card(self, step: int, known: Knowledge, action: dict[str, Any], legal: list[dict[str, Any]]) -> Decision:
        cards = {c["id"]: c for c in known.view["hack_row"]}
        one_shot = known.view["options"]["mode"] == "one-shot"
        gain, scale = (score_gain, SYMBOLS) if one_shot else (information_gain, BITS)

        def value(give: dict[str, Any]) -> float:
            card = cards[give["card"]]
            return gain(known.beliefs[give["to"]], card["position"], card["values"])

        gives = [a for a in legal if a["type"] == "give"]
        best = max(gives, key=value)
        what = (
            _("expected symbols you will name right about the receiver")
            if one_shot
            else _("how much the card narrows the receiver's code, as a share of the best card")
        )
        return Decision.judge(
            step,
            N_("hack card"),
            scale,
            self.give_text(cards, action),
            value(action),
            self.give_text(cards, best),
            value(best),
            what,
        )

    @staticmethod
    def give_text(cards: dict[int, dict[str, Any]], give: dict[str, Any]) -> str:
        card = cards[give["card"]]
        return _("{card} to seat {seat}").format(
            card=f"{card['position']} {''.join(map(str, card['values']))}", seat=seat_number(give["to"])
        )

    def decode(self, step: int, known: Knowledge, action: dict[str, Any]) -> Decision:
        target, code = action["target"], action["code"]
        p = float(known.beliefs[target][code_index(code[0], int(code[1]), int(code[2]))])
        best_p, best_target, best_code = known.best_decode()
        note = _("impossible: what you could see rules it out") if p == 0 else ""
        return Decision.judge(
            step,
            N_("decode"),
            CHANCE,
            decode_text(target, code),
            p,
            decode_text(best_target, code_text(best_code)),
            best_p,
            note,
            worst=p == 0,
        )

    def waited(self, step: int, known: Knowledge) -> Decision:
        """Waiting is fine unless a decode was certain: then it hands a sure elimination to the others."""
        p, target, code = known.best_decode()
        grade = "mistake" if p >= SURE else "best"
        return Decision(
            step,
            N_("decode or wait"),
            _("waited"),
            round(p, 4),
            decode_text(target, code_text(code)),
            round(p, 4),
            "chance",
            grade,
            _("a certain decode was on the table") if p >= SURE else "",
        )

    def reveal(self, step: int, known: Knowledge, action: dict[str, Any], legal: list[dict[str, Any]]) -> Decision:
        public, mine = known.public(), code_index(*known.code)
        cost = {a["card"]: reveal_cost(public, mine, a["card"]) for a in legal}
        best = min(cost, key=cost.__getitem__)
        return Decision.judge(
            step,
            N_("card turned up"),
            EXPOSURE,
            _("turned up {card}").format(card=action["card"]),
            cost[action["card"]],
            _("turn up {card}").format(card=best),
            cost[best],
            _(EXPOSURE_NOTE),
        )

    def answers(self, step: int, known: Knowledge, action: dict[str, Any]) -> list[Decision]:
        found = []
        for target, code in sorted(action["codes"].items()):
            probs = known.beliefs[int(target)]
            best, best_score = best_answer(probs)
            answer = _("seat {seat}: {code}").format
            seat = seat_number(int(target))  # a JSON object's key
            found.append(
                Decision.judge(
                    step,
                    N_("answer"),
                    SYMBOLS,
                    answer(seat=seat, code=code),
                    answer_score(probs, code),
                    answer(seat=seat, code=best),
                    best_score,
                    _("expected symbols right"),
                )
            )
        return found


REVIEWER = CodingReviewer  # read by codecrack.review.core.reviewer_for
