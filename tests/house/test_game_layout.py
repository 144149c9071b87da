"""Every game package of codecrack has the same layout (issue 26 section 3): ``rules.py`` (the
state machine), ``view.py`` (what one seat may see: the secret-stripping, reviewable on its own),
``nature.py``, ``encoding.py`` and ``agents.py``, and the rules' ``_view`` only hands over to the
view module, so that no secret is stripped anywhere else."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "codecrack" / "games"
LAYOUT = ("rules.py", "view.py", "nature.py", "encoding.py", "agents.py")
PACKAGES = sorted(path for path in GAMES.iterdir() if (path / "rules.py").is_file())


def test_every_game_package_has_the_common_layout():
    assert [path.name for path in PACKAGES] == ["alphacode", "coda", "coding"]
    assert {path.name: [f for f in LAYOUT if not (path / f).is_file()] for path in PACKAGES} == {
        path.name: [] for path in PACKAGES
    }


def view_hand_over(rules: Path) -> list[str]:
    """What each ``_view`` method of ``rules`` returns: the name of a function imported from ``.view``
    when it only hands over to it, else its source."""
    tree = ast.parse(rules.read_text(encoding="utf-8"))
    from_view = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "view"
        for alias in node.names
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "_view":
            body = node.body[1:] if ast.get_docstring(node) else node.body
            call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
            handed = isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in from_view
            found.append(call.func.id if handed else ast.unparse(node))
    return found


def test_each_game_s_view_is_its_view_module_s():
    assert {path.name: view_hand_over(path / "rules.py") for path in PACKAGES} == {
        "alphacode": ["alphacode_view"],
        "coda": ["coda_view"],
        "coding": ["coding_view"],
    }
