"""Public facts about each player's code, kept as a mask over the 540 codes.

:class:`Facts` turns what happens at the table into constraints, and builds exact
:class:`~codecrack.games.coding.belief.Belief` objects from them: a seat's own belief (its own
code known) or the public one (nobody's code known), which is what opponents can deduce about
a seat.

>>> facts = Facts(3)
>>> facts.took_data(1, "A-B")
>>> facts.hack_answer(1, "x1", [7, 8, 9], green=True)
>>> belief, seats = facts.belief(me=0, my_code=("C", 7, 1))
>>> seats
[1, 2]
>>> round(belief.marginals(0)["x1"][7], 3)
0.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .belief import (
    CODE_BITS,
    CODE_VALUES,
    N_CODES,
    Belief,
    code_index,
    in_set,
    symbol_bits,
    symbol_value,
    uses_none,
)
from .cards import DATA_CARDS

Code = tuple[str, int, int]

#: (share of players, how often such a player's wrong decode names one of its own symbols):
#: honest players slip rarely, bluffers do it on purpose most of the time.
BLUFF_PRIOR = ((0.9, 0.02), (0.1, 0.6))
CAUGHT = 0.5  # a player this likely to be a bluffer makes the whole table unreadable


def data_range(data_type: str) -> np.ndarray:
    """Codes inside a data card's range (codes that may NOT take it).

    >>> int(data_range("20-39").sum()), int(data_range("E-F").sum())
    (108, 180)
    """
    position, values = DATA_CARDS[data_type]
    return in_set(position, values)


def code_of(text: str) -> Code:
    """``"F98"`` as ``("F", 9, 8)``."""
    return (text[0], int(text[1]), int(text[2]))


class Facts:
    """Everything public about ``players`` codes, plus symbols known to be in nobody's code."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.masks = [np.ones(N_CODES, dtype=bool) for _ in range(players)]
        self.unused_bits = 0  # symbols dealt face up from the leftover code cards
        self.named: list[list[int]] = [[] for _ in range(players)]  # symbols in each seat's wrong decodes

    # -- what happens at the table ------------------------------------------------------
    def require(self, seat: int, mask: np.ndarray) -> None:
        self.masks[seat] &= mask

    def took_data(self, seat: int, data_type: str) -> None:
        """``seat`` took a data card: their code is outside its range."""
        self.require(seat, ~data_range(data_type))

    def cannot_take(self, seat: int, available: Iterable[str]) -> None:
        """``seat`` declared "cannot take" while the types ``available`` (not held) were on the table."""
        for data_type in available:
            self.require(seat, data_range(data_type))

    def hack_answer(self, seat: int, position: str, values: Iterable[str | int], green: bool) -> None:
        """``seat`` placed a hack card green (value in ``values``) or red side up."""
        inside = in_set(position, values)
        self.require(seat, inside if green else ~inside)

    def revealed(self, seat: int, position: str, symbol: str | int) -> None:
        """One of ``seat``'s code cards was turned face up."""
        self.require(seat, CODE_VALUES[position] == symbol_value(position, symbol))

    def code_revealed(self, seat: int, code: Code) -> None:
        """``seat``'s whole code is known (decoded, or revealed after a wrong slap)."""
        exact = np.zeros(N_CODES, dtype=bool)
        exact[code_index(*code)] = True
        self.require(seat, exact)

    def wrong_decode(self, target: int, code: Code) -> None:
        """Someone decoded ``target`` as ``code`` and was wrong."""
        self.masks[target][code_index(*code)] = False

    def named_wrong(self, seat: int, code: Code) -> None:
        """``seat`` named ``code`` as someone else's, wrongly. Players rarely name a symbol they
        hold, unless they bluff: :meth:`reading_weights` turns this into a likelihood.

        This one is a reading of players, not a rule of the game, so only the readings that
        want it record it.
        """
        self.named[seat].append(symbol_bits(code[0], code[1:]))

    def reading_parts(self, seat: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The likelihood of each of ``seat``'s codes given the wrong decodes it made, split into
        its honest and its bluffer part (their sum is the likelihood), or ``None`` if it made none.

        Whether a wrong decode names one of the guesser's own symbols is a coin with the
        guesser's own bias ``e``, drawn once per player from :data:`BLUFF_PRIOR` (most players
        almost never do it; a bluffer often does). For a code that shares symbols with ``k`` of
        the ``n`` named codes the likelihood is ``sum(share * e**k * (1 - e)**(n - k))``: exact
        Bayes under that prior, so what the seat sees of this player (revealed cards showing a
        named symbol, say) moves the estimate of ``e`` through the same count.
        """
        named = self.named[seat]
        if not named:
            return None
        k = sum(((CODE_BITS & bits) != 0).astype(float) for bits in named)
        n = len(named)
        (honest_share, honest), (bluff_share, bluff) = BLUFF_PRIOR
        return (honest_share * honest**k * (1 - honest) ** (n - k), bluff_share * bluff**k * (1 - bluff) ** (n - k))

    def reading_weights(self, seat: int) -> np.ndarray | None:
        parts = self.reading_parts(seat)
        return None if parts is None else parts[0] + parts[1]

    def bluffer_chance(self, seat: int, probs: np.ndarray) -> float:
        """The chance that ``seat`` is a bluffer, given ``probs``, its exact code probabilities
        under the reading (0 if it made no wrong decode)."""
        parts = self.reading_parts(seat)
        if parts is None:
            return 0.0
        honest, bluff = parts
        return float((probs * bluff / (honest + bluff)).sum())

    def caught_bluffing(self, belief: Belief, seats: Sequence[int]) -> bool:
        """True when some player is more likely a bluffer than not: then this table's wrong
        decodes are better not read at all (every player may be one)."""
        return any(self.bluffer_chance(s, belief.probs[i]) >= CAUGHT for i, s in enumerate(seats))

    def weights(self, seat: int, free: np.ndarray) -> np.ndarray:
        """``seat``'s weight per code: the facts' mask, codes using ``free``-excluded symbols
        removed, times the wrong-decode likelihood when one was recorded."""
        mask = self.masks[seat] & free
        reading = self.reading_weights(seat)
        weights: np.ndarray = mask if reading is None else mask * reading
        return weights

    def unused(self, letters: Iterable[str] = (), digits: Iterable[int] = ()) -> None:
        """Leftover code cards dealt face up: nobody holds these symbols."""
        self.unused_bits |= symbol_bits(letters, digits)

    # -- beliefs ------------------------------------------------------------------------
    def belief(self, me: int, my_code: Code, seats: Sequence[int] | None = None) -> tuple[Belief, list[int]]:
        """``me``'s exact belief about the other players' codes, and the seats it covers."""
        seats = [s for s in range(self.players) if s != me] if seats is None else list(seats)
        taken = self.unused_bits | symbol_bits(my_code[0], my_code[1:])
        free = uses_none(taken)
        return Belief([self.weights(s, free) for s in seats]), seats

    def public_belief(self) -> Belief:
        """What an onlooker who knows no code can deduce about every player's code."""
        free = uses_none(self.unused_bits)
        return Belief([self.weights(s, free) for s in range(self.players)])
