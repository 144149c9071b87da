"""Going away gracefully: an instance told to stop drains first."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Drain:
    """Whether this instance is shutting down: while it is, its readiness check fails."""

    active: bool = False
