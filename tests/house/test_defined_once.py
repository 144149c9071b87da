"""A rule of a game is written once (issue 26 section 3: ``hand_size`` was defined twice): every
other place asks the one definition."""

import ast
import re
from pathlib import Path

import codecrack

ROOT = Path(codecrack.__file__).parent
ONCE = {"hand_size": "games/coda/tiles.py"}  # a rule -> the one module that defines it


def definitions(name: str) -> list[str]:
    """Where ``name`` is defined in codecrack's Python (a function, a class or a module constant),
    or set from anything but a call of it; and where its camelCase twin is in the front end's code."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
                found.append(where)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                named = any(getattr(target, "id", getattr(target, "attr", None)) == name for target in targets)
                asks = isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == name
                if named and not asks:
                    found.append(f"{where}:{node.lineno}")
    camel = re.sub(r"_(\w)", lambda m: m.group(1).upper(), name)
    for path in sorted(ROOT.rglob("*.js")):
        if re.search(rf"\b{camel}\b", path.read_text(encoding="utf-8")):
            found.append(path.relative_to(ROOT).as_posix())
    return found


def test_the_hand_size_is_defined_once():
    for name, home in ONCE.items():
        assert definitions(name) == [home], name


def test_a_second_definition_is_found(tmp_path, monkeypatch):
    """The check itself: a copy of the rule in another module is reported."""
    twin = tmp_path / "codecrack"
    (twin / "games").mkdir(parents=True)
    (twin / "games" / "tiles.py").write_text("def hand_size(players):\n    return 4\n", encoding="utf-8")
    (twin / "agents.py").write_text("class A:\n    def __init__(self):\n        self.hand_size = 3\n", encoding="utf-8")
    (twin / "ok.py").write_text("from .games.tiles import hand_size\nsize = hand_size(2)\n", encoding="utf-8")
    (twin / "board.js").write_text("const handSize = (players) => (players === 4 ? 3 : 4);\n", encoding="utf-8")
    monkeypatch.setitem(globals(), "ROOT", twin)
    assert definitions("hand_size") == ["agents.py:3", "games/tiles.py", "board.js"]
