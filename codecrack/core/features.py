"""Fixed-layout feature vectors: named blocks of a ``float32`` vector, for observation encoders.

>>> layout = Layout()
>>> layout.block("seat", 3, doc="one-hot: this seat").block("grid", 2, 4, doc="a table")
Layout(seat: (3,), grid: (2, 4))
>>> vector = layout.zeros()
>>> layout.part(vector, "grid")[1, 2] = 1.0
>>> vector.shape, int(vector.argmax())
((11,), 9)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np


class Layout:
    """Blocks of a flat vector, each with a name, a shape, a one-line meaning and the highest
    value its entries take (1 for flags and one-hots; every entry is at least 0)."""

    def __init__(self) -> None:
        self.blocks: dict[str, tuple[slice, tuple[int, ...], str]] = {}
        self.size = 0
        self._highs: list[float] = []

    def block(self, name: str, *shape: int, doc: str = "", high: float = 1.0) -> Layout:
        width = math.prod(shape)
        self.blocks[name] = (slice(self.size, self.size + width), shape, doc)
        self.size += width
        self._highs += [float(high)] * width
        return self

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def highs(self) -> np.ndarray:
        """The upper bound of every entry (for an observation space's ``Box``)."""
        return np.array(self._highs, dtype=np.float32)

    def part(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The block ``name`` of ``vector`` in its shape (a view: writing to it writes the vector)."""
        where, shape, _ = self.blocks[name]
        return vector[where].reshape(shape)

    def parts(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Every block of ``vector``, by name (views, as :meth:`part` gives them)."""
        return {name: vector[where].reshape(shape) for name, (where, shape, _) in self.blocks.items()}

    def describe(self) -> list[dict[str, Any]]:
        """The layout as a table: name, shape, offset and meaning of each block."""
        return [
            {
                "name": name,
                "shape": list(shape),
                "offset": where.start,
                "meaning": doc,
                "high": self._highs[where.start],
            }
            for name, (where, shape, doc) in self.blocks.items()
        ]

    def __repr__(self) -> str:
        return "Layout(" + ", ".join(f"{name}: {shape}" for name, (_, shape, _) in self.blocks.items()) + ")"


def one_hot(part: np.ndarray, index: int | None) -> None:
    """Set ``part[index]`` to 1 (nothing for ``None``)."""
    if index is not None:
        part[index] = 1.0


def seats(part: np.ndarray, chosen: Iterable[int]) -> None:
    """Set ``part[seat]`` to 1 for every chosen seat."""
    for seat in chosen:
        part[seat] = 1.0
