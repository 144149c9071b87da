"""Measurement tools, apart from the layers they measure: every ``codecrack bench`` benchmark.

Each module here names its benchmarks in ``BENCHMARKS``; a plug-in game may add its own in a
``bench`` module of its package. The figures and their commands are in docs/benchmarks.md.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

from ..core.errors import OptionError
from ..core.registry import GAMES, game_module

Benchmark = Callable[..., dict[str, Any]]


def benchmarks() -> dict[str, Benchmark]:
    """Every benchmark by name: this package's modules', then each game's own ``bench`` module's."""
    table: dict[str, Benchmark] = {}
    for module in pkgutil.iter_modules(__path__):
        table.update(getattr(importlib.import_module(f"{__name__}.{module.name}"), "BENCHMARKS", {}))
    for game in GAMES:
        table.update(getattr(game_module(game, "bench"), "BENCHMARKS", {}))
    return table


def run_benchmark(name: str, **params: Any) -> dict[str, Any]:
    table = benchmarks()
    if name not in table:
        raise OptionError(f"unknown benchmark {name!r}; valid benchmarks: {', '.join(sorted(table))}")
    return table[name](**{k: v for k, v in params.items() if v is not None})
