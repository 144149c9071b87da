"""The arrows of codecrack's imports run one way: no module imports itself back through others,
and a lower layer never imports a higher one (i18n, then core, then games, then agents and interfaces, then
web and the CLI). Imports under ``if TYPE_CHECKING:`` are for annotations only and not counted.

``KNOWN_BACK_ARROWS`` lists the arrows that still break the rule outside the web layer (issue 26
section 3); it only shrinks: each entry is removed when its arrow is, and a listed arrow that no
longer exists fails the test so that the list stays true."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "codecrack"

# Each top-level part of codecrack and its layer: an import may only point to the same layer or a lower one.
LAYERS = {
    "i18n": 0,  # gettext's catalogues: a leaf (the engine's errors are explained in core/errors.py)
    "core": 1,
    "games": 2,
    "agents": 3,
    "arena": 3,
    "env": 3,
    "loadtest": 3,
    "protocol": 3,
    "ratings": 3,
    "report": 3,
    "review": 3,
    "terminal": 3,
    "tutorials": 3,
    "web": 4,
    "bench": 4,  # measurement tools, beside the CLI
    "cli": 4,
    "cli_language": 4,
    "cli_admin": 4,
    "__main__": 4,
    "__init__": 4,  # the package's own API re-exports the layers below it
}

# A game's pieces for a host sit at that host's layer: they build on its API, as a plug-in would.
HOST_PIECES = {"review": "review", "screen": "terminal", "realtime": "terminal"}

# (importer, imported): the arrows that still point up or close a circle (issue 26 section 3).
KNOWN_BACK_ARROWS: set[tuple[str, str]] = {
    # circles inside a part
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in ROOT.rglob("*.py")}


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement (at any depth, in functions too) not under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def graph() -> dict[str, set[str]]:
    """``module -> the codecrack modules it imports`` (a name imported from a package counts as
    its submodule when there is one)."""
    known = modules()
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                bases = [alias.name for alias in node.names]
                names: list[str] = []
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                bases, names = [base], [alias.name for alias in node.names]
            for base in bases:
                if not base.startswith("codecrack"):
                    continue
                subs = [f"{base}.{n}" for n in names if f"{base}.{n}" in known]
                targets.update(subs or [base] if base in known else subs)
                if not subs and base not in known:  # a name from a module not found: its nearest package
                    targets.add(base.rpartition(".")[0])
        edges[name] = {t for t in targets if t != name and t in known}
    return edges


def layer_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 4 and parts[1] == "games" and parts[3] in HOST_PIECES:
        return LAYERS[HOST_PIECES[parts[3]]]
    return LAYERS[parts[1] if len(parts) > 1 else "__init__"]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def without_known(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    return {source: {t for t in targets if (source, t) not in KNOWN_BACK_ARROWS} for source, targets in edges.items()}


def test_every_part_of_codecrack_has_a_layer():
    assert {module.split(".")[1] for module in modules() if "." in module} <= set(LAYERS)


def test_no_lower_layer_imports_a_higher_one():
    edges = without_known(graph())
    upward = sorted((s, t) for s, targets in edges.items() for t in targets if layer_of(t) > layer_of(s))
    assert upward == []


def test_codecrack_has_no_import_cycle():
    assert cycles(without_known(graph())) == []


def test_the_web_layer_has_no_import_cycle_even_with_the_known_arrows():
    edges = graph()
    web = {
        s: {t for t in targets if t.startswith("codecrack.web")}
        for s, targets in edges.items()
        if s.startswith("codecrack.web")
    }
    assert cycles(web) == []


def test_every_known_back_arrow_still_exists():
    """When an arrow is fixed, remove it from KNOWN_BACK_ARROWS."""
    edges = graph()
    assert sorted(arrow for arrow in KNOWN_BACK_ARROWS if arrow[1] not in edges.get(arrow[0], set())) == []
