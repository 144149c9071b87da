"""No object calls up into its owner: an object never holds the object that made it or keeps it.

The owner (the hub, a table, a game) gives what it owns only what it needs: values, ports (a
journal, table events, a fan-out) and callbacks (``Cluster(tables=..., reread=hub.reread)``,
``RedisFanout(redis, instance, heard, reconnected)``). A callback lets the owned object ask for
something without knowing who answers; a back-reference would let it reach every part of its
owner, which is how ``LiveTable`` once called ``hub.persist``, ``hub.bots`` and ``hub.cluster``
(issue 26 section 1). Read in the source of every module of codecrack, statically:

1. a method never gives ``self`` to a constructor (a call of a CapWords name, ``Part(self)``,
   ``Part(owner=self)``);
2. a method never stores ``self`` in another object (``other.owner = self``,
   ``other[key] = self``, ``setattr(other, name, self)``, ``other.append(self)``, ``.add``, ...);
3. a class never declares, in its ``__init__`` parameters or its class-level attributes, the
   type of a class whose methods construct it (``class Part: def __init__(self, hub: Hub)``
   while ``Hub`` calls ``Part(...)``).

Passing ``self`` to a function that only reads it (``coda_view(self, seat)``) or to listeners
(``events.committed(self, seat, action)``: the table tells, it does not ask) is allowed.
``ALLOWED`` lists the exceptions a library's API imposes; it only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "codecrack"

# (module, owner class, owned class): OpenSpiel's pyspiel.State is built with its game.
ALLOWED = {("codecrack.env.openspiel", "CodecrackGame", "CodecrackState")}

STORING_METHODS = {"append", "add", "extend", "insert", "setdefault", "update", "put", "put_nowait"}


def is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def callee_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def arguments(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(keyword.value for keyword in call.keywords)]


def methods(cls: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [node for node in cls.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def self_given_to_constructors(cls: ast.ClassDef) -> list[tuple[int, str]]:
    """Rule 1: ``(line, constructed class)`` for every ``Part(..., self, ...)`` in the class."""
    found = []
    for method in methods(cls):
        for node in ast.walk(method):
            if isinstance(node, ast.Call) and any(is_self(arg) for arg in arguments(node)):
                name = callee_name(node)
                if name and name[0].isupper():
                    found.append((node.lineno, name))
    return found


def self_stored_elsewhere(cls: ast.ClassDef) -> list[int]:
    """Rule 2: the lines that store ``self`` in another object."""
    found = []
    for method in methods(cls):
        for node in ast.walk(method):
            if isinstance(node, ast.Assign) and is_self(node.value):
                targets = [t for t in node.targets if isinstance(t, ast.Attribute | ast.Subscript)]
                if any(not is_self(t.value) for t in targets):
                    found.append(node.lineno)
            elif isinstance(node, ast.Call) and any(is_self(arg) for arg in arguments(node)):
                func = node.func
                if isinstance(func, ast.Name) and func.id == "setattr" and not is_self(node.args[0]):
                    found.append(node.lineno)
                elif isinstance(func, ast.Attribute) and func.attr in STORING_METHODS and not is_self(func.value):
                    found.append(node.lineno)
    return found


def names_in(annotation: ast.expr | None) -> set[str]:
    """Every name an annotation mentions, in strings too (``"Hub | None"``)."""
    found: set[str] = set()
    for node in ast.walk(annotation) if annotation is not None else ():
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                found |= names_in(ast.parse(node.value, mode="eval").body)
            except SyntaxError:
                pass
    return found


def declared_holdings(cls: ast.ClassDef) -> set[str]:
    """The names in the class's attribute annotations and its ``__init__`` parameters' annotations."""
    found: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.AnnAssign):
            found |= names_in(node.annotation)
        elif isinstance(node, ast.FunctionDef) and node.name == "__init__":
            for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                found |= names_in(arg.annotation)
    return found


def constructed(cls: ast.ClassDef) -> set[str]:
    """The CapWords names the class's methods call: the classes it constructs."""
    return {
        name
        for method in methods(cls)
        for node in ast.walk(method)
        if isinstance(node, ast.Call) and (name := callee_name(node)) and name[0].isupper()
    }


def classes(sources: dict[str, str]) -> list[tuple[str, ast.ClassDef]]:
    """``(module, class)`` for every class of every module's source (nested classes too)."""
    return [
        (module, node)
        for module, text in sources.items()
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ClassDef)
    ]


def calls_up(sources: dict[str, str]) -> list[str]:
    """Every breach of the three rules in ``sources`` (module name -> source text)."""
    found = []
    every = classes(sources)
    holdings: dict[str, set[str]] = {}
    for _, cls in every:
        holdings.setdefault(cls.name, set()).update(declared_holdings(cls))
    for module, cls in every:
        for line, part in self_given_to_constructors(cls):
            if (module, cls.name, part) not in ALLOWED:
                found.append(f"{module}:{line}: {cls.name} gives itself to {part}")
        found += [f"{module}:{line}: {cls.name} stores itself in another object" for line in self_stored_elsewhere(cls)]
        for part in sorted(constructed(cls) - {cls.name}):
            if cls.name in holdings.get(part, set()) and (module, cls.name, part) not in ALLOWED:
                found.append(f"{module}: {part}, which {cls.name} constructs, declares a {cls.name}")
    return found


def codecrack_sources() -> dict[str, str]:
    return {
        ".".join(path.relative_to(ROOT.parent).with_suffix("").parts): path.read_text(encoding="utf-8")
        for path in sorted(ROOT.rglob("*.py"))
    }


def test_no_object_of_codecrack_calls_up_into_its_owner():
    assert calls_up(codecrack_sources()) == []


def test_every_allowed_exception_is_still_needed():
    """When an allowed back-reference goes, remove it from ALLOWED."""
    sources = codecrack_sources()
    needed = {
        (module, cls.name, part)
        for module, cls in classes(sources)
        for part in {name for _, name in self_given_to_constructors(cls)} | constructed(cls)
    }
    assert ALLOWED - needed == set()


OWNER = """
class Hub:
    def open(self, code):
        self.tables[code] = Table(code, hub=self)
"""
STORER = """
class Hub:
    def open(self, table):
        table.hub = self
        setattr(table, "owner", self)
        self.others.append(self)
        table.listeners.append(self)
"""
TYPED = """
class Table:
    def __init__(self, code: str, owner: "Hub | None") -> None:
        self.owner = owner

class Hub:
    def open(self, code):
        return Table(code, self.me)
"""
FINE = """
class Hub:
    def open(self, code):
        table = Table(code, journal=self.journal, reread=self.reread)
        self.events.opened(self, table)
        self.me = self
        return view_of(self, code)

class Table:
    def __init__(self, code: str, reread: "Callable[[Table], None]") -> None:
        self.reread = reread
"""


def test_the_rules_catch_each_way_of_holding_the_owner():
    assert calls_up({"owner": OWNER}) == ["owner:4: Hub gives itself to Table"]
    assert calls_up({"storer": STORER}) == [
        f"storer:{line}: Hub stores itself in another object" for line in (4, 5, 6, 7)
    ]
    assert calls_up({"typed": TYPED}) == ["typed: Table, which Hub constructs, declares a Hub"]
    assert calls_up({"fine": FINE}) == []
