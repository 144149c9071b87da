"""No merge leaves its conflict markers behind: a marker inside a Python docstring still imports, but one in a
script or a page breaks it (account.js did, on main, after a merge)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKERS = ("<<<<<<< ", ">>>>>>> ")


def test_no_file_keeps_a_merge_conflict_marker():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)
    found = []
    for name in files.stdout.splitlines():
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:  # a picture or another binary file
            continue
        found += [f"{name}:{number}" for number, line in enumerate(lines, 1) if line.startswith(MARKERS)]
    assert found == []
