"""Exact Coda beliefs: count every assignment of the unseen tiles that fits what one seat knows.

A :class:`Position` is the abstract public state seen from one seat: rows of tiles, each tile
with its colour and either a value the observer knows or a mask of values it may still hold
(missed guesses and remembered candidate sets shrink the mask).  :func:`solve` counts, exactly,
the assignments of distinct tiles to the hidden places such that

* every row's numbered tiles ascend by the key ``2 * value + colour`` (black before white),
* a dash sits anywhere (its owner put it there), and a numbered tile next to a dash may stand
  on either side of it (its owner chose), so where a tile entered says no more than the order,
* each value is used once per colour and values the observer knows elsewhere are excluded.

Every such assignment counts once: tiles are dealt and drawn uniformly without replacement,
every consistent world leaves the same number of ways to order the pile, and the owners'
placement choices are read as carrying no information (no model of how an owner chooses).

The count is a dynamic programme over the 24 number keys in ascending order.  Each row's hidden
numbered tiles form a chain that must take increasing keys, so walking the keys upwards each key
either joins exactly one row (as that row's next hidden tile) or stays unseen.  The state is one
pointer per row; with numpy the forward and backward passes are a few array shifts per key and
give every tile's exact marginal counts.  Dashes (at most one per colour) are handled by
enumerating where each dash is: nowhere in a row, or at one hidden tile of its colour.  When a
single row hides tiles and no dash can be hidden (every position a 2-player seat sees without
dashes) the same programme runs on plain Python integers, and the arrays are built only when
read (:meth:`Belief.top` and :meth:`Belief.chances` need none): several times faster on these
small chains, with the same numbers bit for bit.

>>> row = [Tile(0, 3), Tile(1, None), Tile(0, 7)]          # black 3, hidden white, black 7
>>> belief = solve(Position([row]))
>>> belief.total                                          # white 3, 4, 5 or 6
4
>>> belief.probs[0][1][3:7].tolist()
[0.25, 0.25, 0.25, 0.25]
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import product
from typing import Any

import numpy as np

BLACK, WHITE = 0, 1
DASH = 12
VALUES = 13  # 0..11 and the dash
KEYS = 24
ANY = (1 << VALUES) - 1
VALUE_BITS = 1 << np.arange(12)


def key(color: int, value: int) -> int:
    """Sort key of a numbered tile: black before white on equal values.

    >>> key(BLACK, 5) < key(WHITE, 5) < key(BLACK, 6)
    True
    """
    return 2 * value + color


@dataclass(frozen=True)
class Tile:
    """A tile as one observer sees it.

    ``value`` is 0-11 or :data:`DASH` when the observer knows it, else ``None``; ``allowed`` is a
    bitmask over the 13 values still possible for a hidden tile.
    """

    color: int
    value: int | None
    allowed: int = ANY


@dataclass
class Position:
    """Rows of tiles from one observer's side, plus tiles it knows outside the rows."""

    rows: list[list[Tile]]
    dashes: bool = False
    elsewhere: frozenset[tuple[int, int]] = frozenset()  # (colour, value), e.g. the tile in hand


class Belief:
    """Exact counts: ``total`` consistent worlds, ``counts[row][i][v]`` of them with value ``v``;
    ``probs[row][i][v]`` is that count over ``total`` (built when first read)."""

    def __init__(self, total: int, counts: list[list[np.ndarray]]) -> None:
        self.total = total
        self.counts = counts

    @cached_property
    def probs(self) -> list[list[np.ndarray]]:
        scale = 1.0 / self.total if self.total else 0.0
        return [[np.asarray(c, dtype=float) * scale for c in row] for row in self.counts]

    def chances(self, row: int, index: int) -> list[float]:
        """``probs[row][index]``: the chance of each value of the tile."""
        chances: list[float] = self.probs[row][index].tolist()
        return chances

    def top(self, row: int, index: int) -> tuple[float, list[int]]:
        """The highest chance of tile ``index`` of ``row`` and the values that have it."""
        probs = self.probs[row][index]
        chance = float(probs.max())
        return chance, [int(v) for v in np.flatnonzero(probs == chance)]


class _RowBelief(Belief):
    """A :class:`Belief` kept as one flat list of integer counts (13 per tile, row after row),
    whose arrays are built only when read: :meth:`top` needs none. The same numbers, bit for bit."""

    def __init__(self, total: int, table: list[int], lengths: list[int]) -> None:
        self.total, self.table, self.lengths = total, table, lengths
        self.starts = [sum(lengths[:r]) for r in range(len(lengths))]

    @cached_property
    def counts(self) -> list[list[np.ndarray]]:  # type: ignore[override]
        array = np.array(self.table, dtype=np.int64).reshape(-1, VALUES)
        return [list(array[start : start + length]) for start, length in zip(self.starts, self.lengths)]

    def chances(self, row: int, index: int) -> list[float]:
        at = (self.starts[row] + index) * VALUES
        scale = 1.0 / self.total if self.total else 0.0
        return [count * scale for count in self.table[at : at + VALUES]]

    def top(self, row: int, index: int) -> tuple[float, list[int]]:
        at = (self.starts[row] + index) * VALUES
        counts = self.table[at : at + VALUES]
        scale = 1.0 / self.total if self.total else 0.0
        chance = max(counts) * scale  # as numpy scales each count: the float of the count, times scale
        return chance, [v for v, count in enumerate(counts) if count * scale == chance]


def solve(position: Position) -> Belief:
    """Count every consistent assignment and each hidden tile's per-value counts exactly."""
    rows = position.rows
    masks = _hidden_masks(position)
    if not any(bits >> DASH & 1 for bits in masks.values()):
        if len({r for r, _ in masks}) == 1:  # one row hides tiles (always with 2 players): plain integers
            return _one_row(rows, masks)
        return _with_known(rows, *_enumerate(rows, masks, [set()]))
    if len({r for r, _ in masks}) == 1:  # one row: a quick integer DP per dash placement
        return _with_known(rows, *_enumerate(rows, masks, list(_dash_cases(rows, masks))))
    return _with_known(rows, *_flagged(rows, masks))


def _one_row(rows: list[list[Tile]], masks: dict[tuple[int, int], int]) -> Belief:
    """:func:`solve` without dashes when a single row hides tiles, in plain Python integers (the
    same counts as the numpy programme, several times faster on these small chains)."""
    lengths = [len(row) for row in rows]
    table = [0] * (sum(lengths) * VALUES)
    total = 0
    if all(_ascending(row) for row in rows):
        (r,) = {r for r, _ in masks}
        places = _bounded_keys(rows[r], r, masks)
        total, marginals = _count_keys([keys for _, keys in places])
        start = sum(lengths[:r])
        for (i, keys), marginal in zip(places, marginals):
            for k, ways in zip(keys, marginal):
                table[(start + i) * VALUES + (k >> 1)] = ways
    start = 0
    for row in rows:
        for i, tile in enumerate(row):
            if tile.value is not None:
                table[(start + i) * VALUES + tile.value] = total
        start += len(row)
    return _RowBelief(total, table, lengths)


def _ascending(row: list[Tile]) -> bool:
    """Whether the row's known numbers ascend (else no world fits, as :func:`_chain` finds)."""
    last = -1
    for tile in row:
        if tile.value is not None and tile.value != DASH:
            if key(tile.color, tile.value) <= last:
                return False
            last = key(tile.color, tile.value)
    return True


def _bounded_keys(row: list[Tile], r: int, masks: dict[tuple[int, int], int]) -> list[tuple[int, tuple[int, ...]]]:
    """Each hidden tile's index and the keys it allows, ascending, between the known numbers
    around it (:func:`_chain` as lists; no dashes)."""
    places, pending, low = [], [], -1
    for i, tile in enumerate(row + [_ABOVE_ALL]):
        if tile.value is None:
            pending.append(i)
            continue
        if tile.value == DASH:  # a known dash bounds nothing
            continue
        high = KEYS if i == len(row) else key(tile.color, tile.value)
        for j in pending:
            keys = _color_keys(row[j].color, masks[(r, j)] & ~(1 << DASH))
            places.append((j, keys[bisect_right(keys, low) : bisect_left(keys, high)]))
        pending, low = [], high
    return places


_ABOVE_ALL = Tile(BLACK, KEYS)  # a sentinel that closes a row: no key reaches it


@cache
def _color_keys(color: int, bits: int) -> tuple[int, ...]:
    """The keys of the values in ``bits`` for tiles of ``color``, ascending."""
    return tuple(k for k in range(color, KEYS, 2) if bits >> (k >> 1) & 1)


def _count_keys(places: list[tuple[int, ...]]) -> tuple[int, list[list[int]]]:
    """Count the strictly increasing choices of one key per place from ``places`` (each list
    ascending), and for each place and key the number of choices that take it there."""
    forward: list[list[int]] = []
    for p, keys in enumerate(places):
        forward.append([1] * len(keys) if p == 0 else _sums_below(keys, places[p - 1], forward[-1]))
    backward: list[list[int]] = [[]] * len(places)
    for p in range(len(places) - 1, -1, -1):
        last = p == len(places) - 1
        backward[p] = [1] * len(places[p]) if last else _sums_above(places[p], places[p + 1], backward[p + 1])
    total = sum(forward[-1]) if places else 1
    return total, [[f * b for f, b in zip(fs, bs)] for fs, bs in zip(forward, backward)]


def _sums_below(keys: Sequence[int], previous: Sequence[int], ways: list[int]) -> list[int]:
    """For each of ``keys`` (ascending), the sum of ``ways`` over the ``previous`` keys below it."""
    sums, j, run = [], 0, 0
    for k in keys:
        while j < len(previous) and previous[j] < k:
            run += ways[j]
            j += 1
        sums.append(run)
    return sums


def _sums_above(keys: Sequence[int], following: Sequence[int], ways: list[int]) -> list[int]:
    """For each of ``keys`` (ascending), the sum of ``ways`` over the ``following`` keys above it."""
    sums, j, run = [0] * len(keys), len(following) - 1, 0
    for x in range(len(keys) - 1, -1, -1):
        while j >= 0 and following[j] > keys[x]:
            run += ways[j]
            j -= 1
        sums[x] = run
    return sums


def _no_counts(rows: list[list[Tile]]) -> list[list[np.ndarray]]:
    return [[np.zeros(VALUES, dtype=object) for _ in row] for row in rows]


def _enumerate(
    rows: list[list[Tile]], masks: dict[tuple[int, int], int], cases: list[set[tuple[int, int]]]
) -> tuple[int, list[list[np.ndarray]]]:
    """Worlds with the dashes exactly at each case's places, one DP per case."""
    total = 0
    # One case cannot overflow int64 (at most 5**24 worlds); sums over cases use Python ints.
    kind = np.int64 if len(cases) == 1 else object
    counts = [[np.zeros(VALUES, dtype=kind) for _ in row] for row in rows]
    for dash_at in cases:
        live = _live_chains(rows, masks, dash_at)
        if live is None:
            continue
        ways, per_key = _count_chains([keys for _, (_, keys) in live])
        if ways == 0:
            continue
        total += ways
        for r, i in dash_at:
            counts[r][i][DASH] += ways
        for (r, (indices, _)), marginal in zip(live, per_key):
            for i, tile_keys in zip(indices, marginal):
                counts[r][i][:12] += tile_keys[rows[r][i].color :: 2].astype(kind)
    return total, counts


def _with_known(rows: list[list[Tile]], total: int, counts: list[list[np.ndarray]]) -> Belief:
    for r, row in enumerate(rows):
        for i, tile in enumerate(row):
            if tile.value is not None:
                counts[r][i][tile.value] = total
    return Belief(total, counts)


def _flagged(rows: list[list[Tile]], masks: dict[tuple[int, int], int]) -> tuple[int, list[list[np.ndarray]]]:
    """One DP for all dash placements: a hidden tile may be skipped as its colour's dash.

    The state gains one flag per colour (dash already placed). A row's pointer skips a tile as a
    dash the moment it arrives there (right after filling the tile before it, or at the start),
    so every world is counted once. A tile's dash count is the total minus its key counts.
    """
    live = _live_chains(rows, masks, set())
    if live is None:
        return 0, _no_counts(rows)
    caps = [
        [
            np.array([masks[(r, i)] >> DASH & 1 and rows[r][i].color == color for i in indices], dtype=np.int64)
            for color in (BLACK, WHITE)
        ]
        for r, (indices, _) in live
    ]
    ways, per_key = _count_flagged([keys for _, (_, keys) in live], caps)
    counts = _no_counts(rows)
    for (r, (indices, _)), marginal in zip(live, per_key):
        for i, tile_keys in zip(indices, marginal):
            counts[r][i][:12] = tile_keys[rows[r][i].color :: 2].astype(object)
            counts[r][i][DASH] = ways - int(tile_keys.sum())
    return ways, counts


def _count_flagged(chains: list[np.ndarray], caps: list[list[np.ndarray]]) -> tuple[int, list[np.ndarray]]:
    """:func:`_count_chains` where place ``p`` of chain ``r`` may instead be the dash of colour
    ``c`` when ``caps[r][c][p]``, each dash used at most once."""
    colors = [c for c in (BLACK, WHITE) if any(cap[c].any() for cap in caps)]
    rows_n = len(chains)
    dims = rows_n + len(colors)
    shape = tuple(len(chain) + 1 for chain in chains) + (2,) * len(colors)
    bound = 1
    for chain in chains:
        bound *= int(max(chain.sum(axis=1).max(), 1)) ** len(chain)
    kind = np.int64 if bound * 4 < 2**62 else object

    def cut(axis: int, part: slice, flag: int | None = None, color_axis: int | None = None) -> tuple[Any, ...]:
        index: list[Any] = [slice(None)] * dims
        index[axis] = part
        if color_axis is not None:
            index[color_axis] = flag
        return tuple(index)

    def along(vector: np.ndarray, axis: int, ndim: int) -> np.ndarray:
        return vector.reshape([-1 if d == axis else 1 for d in range(ndim)])

    flag_axes = [(rows_n + n, c) for n, c in enumerate(colors)]
    dashable = [any(cap[c].any() for c in colors) for cap in caps]

    def skips(x: np.ndarray, r: int, back: bool) -> np.ndarray:
        out = np.zeros_like(x)
        for axis, color in flag_axes:
            cap = caps[r][color]
            if not cap.any():
                continue
            src, dst = cut(r, slice(None, -1), 0, axis), cut(r, slice(1, None), 1, axis)
            if back:
                out[src] += x[dst] * along(cap, r, dims - 1)
            else:
                out[dst] += x[src] * along(cap, r, dims - 1)
        return out

    def arrive(x: np.ndarray, r: int, back: bool = False) -> np.ndarray:
        if not dashable[r]:
            return x
        once = skips(x, r, back)
        arrived: np.ndarray = x + once + skips(once, r, back)
        return arrived

    keys = np.flatnonzero(np.any(np.concatenate(chains), axis=0))
    ways = np.zeros(shape, dtype=kind)
    ways[(0,) * dims] = 1
    for r in range(rows_n):
        ways = arrive(ways, r)
    forward = []
    for k in keys:
        forward.append(ways)
        ways = ways.copy()
        for r, chain in enumerate(chains):
            if chain[:, k].any():
                filled = np.zeros_like(ways)
                filled[cut(r, slice(1, None))] = forward[-1][cut(r, slice(None, -1))] * along(
                    chain[:, k].astype(kind), r, dims
                )
                ways += arrive(filled, r)
    end = tuple(len(chain) for chain in chains)
    total = int(ways[end].sum())
    marginals = [np.zeros(chain.shape, dtype=kind) for chain in chains]
    rest = np.zeros(shape, dtype=kind)
    rest[end] = 1
    for k, before in zip(keys[::-1], forward[::-1]):
        after = rest.copy()
        for r, chain in enumerate(chains):
            if not chain[:, k].any():
                continue
            allowed = along(chain[:, k].astype(kind), r, dims)
            onward = arrive(rest, r, back=True)[cut(r, slice(1, None))] * allowed
            others = tuple(d for d in range(dims) if d != r)
            marginals[r][:, k] = (before[cut(r, slice(None, -1))] * onward).sum(axis=others)
            after[cut(r, slice(None, -1))] += onward
        rest = after
    return total, marginals


def effort(position: Position) -> int:
    """A deterministic size of :func:`solve`'s work: DP cells, times the dash placements for a
    single row, or 8 per possibly hidden dash for several rows (the flagged DP doubles the
    state and its extra steps cost about as much again).

    >>> effort(Position([[Tile(BLACK, None), Tile(WHITE, None)], [Tile(BLACK, 4)]]))
    3
    """
    masks = _hidden_masks(position)
    live = {r for r, _ in masks}
    cells = 1
    for r in live:
        cells *= 1 + sum(1 for place in masks if place[0] == r)
    for color in (BLACK, WHITE):
        dashes = sum(1 for (r, i), bits in masks.items() if bits >> DASH & 1 and position.rows[r][i].color == color)
        if dashes:
            cells *= 1 + dashes if len(live) == 1 else 8
    return cells


def _hidden_masks(position: Position) -> dict[tuple[int, int], int]:
    """Each hidden tile's mask after removing values the observer sees elsewhere."""
    seen = {BLACK: 0, WHITE: 0}
    for color, value in position.elsewhere:
        seen[color] |= 1 << value
    for row in position.rows:
        for tile in row:
            if tile.value is not None:
                seen[tile.color] |= 1 << tile.value
    if not position.dashes:
        seen = {color: bits | 1 << DASH for color, bits in seen.items()}
    return {
        (r, i): tile.allowed & ~seen[tile.color]
        for r, row in enumerate(position.rows)
        for i, tile in enumerate(row)
        if tile.value is None
    }


def _dash_cases(rows: list[list[Tile]], masks: dict[tuple[int, int], int]) -> Iterator[set[tuple[int, int]]]:
    """Every way to seat the unseen dashes: each one in no row, or at one hidden tile of its colour."""
    options: list[list[tuple[int, int] | None]] = []
    for color in (BLACK, WHITE):
        places = [p for p, bits in masks.items() if bits >> DASH & 1 and rows[p[0]][p[1]].color == color]
        options.append([None, *places])
    for black, white in product(*options):
        yield {place for place in (black, white) if place is not None}


def _live_chains(
    rows: list[list[Tile]], masks: dict[tuple[int, int], int], dash_at: set[tuple[int, int]]
) -> list[tuple[int, tuple[list[int], np.ndarray]]] | None:
    """``(row, chain)`` for every row hiding numbered tiles (see :func:`_chain`), or ``None``
    when some row's known numbers are out of order."""
    live = []
    for r, row in enumerate(rows):
        chain = _chain(row, r, masks, dash_at)
        if chain is None:
            return None
        if chain[0]:
            live.append((r, chain))
    return live


def _chain(
    row: list[Tile], r: int, masks: dict[tuple[int, int], int], dash_at: set[tuple[int, int]]
) -> tuple[list[int], np.ndarray] | None:
    """The row's hidden numbered tiles and their allowed keys, bounded by its known numbers.

    Returns ``(indices, keys)`` with ``keys`` a boolean (tiles x 24) array, or ``None`` when the
    row's known numbers are out of order (no world fits).
    """
    known = [(i, key(t.color, t.value)) for i, t in enumerate(row) if t.value is not None and t.value != DASH]
    if any(a[1] >= b[1] for a, b in zip(known, known[1:])):
        return None
    indices = [i for i, t in enumerate(row) if t.value is None and (r, i) not in dash_at]
    keys = np.zeros((len(indices), KEYS), dtype=bool)
    for j, i in enumerate(indices):
        low = max((k for at, k in known if at < i), default=-1)
        high = min((k for at, k in known if at > i), default=KEYS)
        keys[j, row[i].color :: 2] = masks[(r, i)] & VALUE_BITS != 0
        keys[j, : low + 1] = False
        keys[j, max(high, 0) :] = False
    return indices, keys


def _count_chains(chains: list[np.ndarray]) -> tuple[int, list[np.ndarray]]:
    """Count increasing, pairwise distinct key assignments to several chains, with marginals.

    ``chains[r]`` is a boolean (length x keys) array of the keys each place of chain ``r`` allows.
    Returns the number of ways and, per chain, a (length x keys) array counting the ways in which
    each place takes each key.

    >>> ways, marginals = _count_chains([np.ones((2, 3), dtype=bool), np.ones((1, 3), dtype=bool)])
    >>> ways, marginals[1].tolist()
    (3, [[1, 1, 1]])
    """
    if not chains:
        return 1, []
    if len(chains) == 1:
        return _count_one_chain(chains[0])
    shape = tuple(len(chain) + 1 for chain in chains)
    dims = len(shape)
    cut = [(_along(d, dims, slice(None, -1)), _along(d, dims, slice(1, None))) for d in range(dims)]
    others = [tuple(x for x in range(dims) if x != d) for d in range(dims)]
    keys = np.flatnonzero(np.any(np.concatenate(chains), axis=0))
    flags = [chain[:, keys].T.astype(np.int64) for chain in chains]
    shapes = [[-1 if d == axis else 1 for d in range(dims)] for axis in range(dims)]
    columns = [[f[n].reshape(shapes[d]) if f[n].any() else None for d, f in enumerate(flags)] for n in range(len(keys))]
    ways = np.zeros(shape, dtype=np.int64)
    ways[(0,) * dims] = 1
    forward = []
    for column in columns:
        forward.append(ways)
        ways = ways.copy()
        for d, allowed in enumerate(column):
            if allowed is not None:
                ways[cut[d][1]] += forward[-1][cut[d][0]] * allowed
    total = int(ways[tuple(s - 1 for s in shape)])
    marginals = [np.zeros(chain.shape, dtype=np.int64) for chain in chains]
    rest = np.zeros(shape, dtype=np.int64)
    rest[tuple(s - 1 for s in shape)] = 1
    for k, column, before in zip(keys[::-1], columns[::-1], forward[::-1]):
        after = rest.copy()
        for d, allowed in enumerate(column):
            if allowed is None:
                continue
            through = before[cut[d][0]] * rest[cut[d][1]] * allowed
            marginals[d][:, k] = through.sum(axis=others[d]) if others[d] else through
            after[cut[d][0]] += rest[cut[d][1]] * allowed
        rest = after
    return total, marginals


def _along(axis: int, dims: int, part: slice) -> tuple[slice, ...]:
    return tuple(part if d == axis else slice(None) for d in range(dims))


def _count_one_chain(chain: np.ndarray) -> tuple[int, list[np.ndarray]]:
    """:func:`_count_chains` for a single chain, in plain integers (faster for short rows)."""
    length, width = chain.shape
    allowed = chain.tolist()
    keys = [k for k in range(width) if any(place[k] for place in allowed)]
    ways = [1] + [0] * length
    forward = []
    for k in keys:
        forward.append(ways)
        ways = ways[:]
        for p in range(length):
            if allowed[p][k]:
                ways[p + 1] += forward[-1][p]
    marginal = [[0] * width for _ in range(length)]
    rest = [0] * length + [1]
    for k, before in zip(reversed(keys), reversed(forward)):
        after = rest[:]
        for p in range(length):
            if allowed[p][k]:
                marginal[p][k] = before[p] * rest[p + 1]
                after[p] += rest[p + 1]
        rest = after
    return ways[length], [np.array(marginal, dtype=np.int64).reshape(length, width)]
