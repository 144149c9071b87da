"""``codecrack loadtest``: drive tables of simulated players over real websockets and report JSON.

See docs/benchmarks.md for how to run it and what it measures.
"""

from .run import run_load
from .settings import LoadSettings

__all__ = ["LoadSettings", "run_load"]
