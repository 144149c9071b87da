"""Alphabet Code at the terminal: your code and your notes drawn on the lettered sheet.

Commands: ``count O D`` (a zone), ``filled Q I`` (a square), ``code a@B h@F ...`` or ``random``
(make your code), ``declare a@NA c@PE ...``, ``pass``. A letter is written ``x@RC`` (the row and
column of its top-left corner point) or ``x@C`` (the letter in the box of zone column C).

>>> view = {"phase": "play", "sheet": {"columns": 13, "rows": 5}}
>>> parse("count o d", view)
{'type': 'count', 'row': 'O', 'column': 'D'}
>>> parse("declare a@B h@F f@J i@PK j@L", view)["letters"][0]
{'letter': 'a', 'row': 'N', 'column': 'A'}
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from rich.console import Group
from rich.text import Text

from ...core.errors import IllegalAction
from ...i18n import N_, _
from ...terminal.seats import seat_list, seat_name, shown
from .codes import check_code, entries_from_text, parse_code, text_position
from .sheet import Cell, Sheet, settled_squares

FREE_FORM_ACTIONS = {"code", "declare"}
HELP = N_(
    "commands: count O D | filled Q I | code a@B h@F ... | random | declare a@NA ... | pass "
    "(a letter is x@RC, its top-left corner point, or x@C, its zone column)"
)


HOW_TO_PLAY = N_("""Welcome to Alphabet Code. A code is five letters drawn as seven-segment shapes on a lattice
sheet: zones (the boxes), the squares between them, and corner points. Rows are lettered N, O, P...
from the top, columns A, B, C... from the left.
First make your code: random, or code a@B h@F ... (each letter at its top-left corner point).
On your turn ask one question about the code you are cracking: count O D (how many of zone O D's
four sides are filled, 0-4) or filled Q I (is square Q I filled?). Everyone hears the answers.
When you know the code, declare it: declare a@NA c@PE ... A second wrong declaration loses
(with three or more players: puts you out).
Two players race to crack each other's code; with three or more, one seat makes the code and the
others crack it. Type ? at any prompt for your moves.""")


# -- parsing -------------------------------------------------------------------------------
def parse(text: str, view: dict[str, Any]) -> dict[str, Any]:
    """Turn a typed command into an action; unknown text raises :class:`IllegalAction` with help."""
    words = text.split()
    if not words:
        raise IllegalAction(_(HELP))
    command, rest = words[0].lower(), words[1:]
    if command in ("count", "filled"):
        where = "".join(rest).upper()
        if len(where) != 2:
            raise IllegalAction(
                _(BAD_COORDINATE).format(command=command, where=" ".join(rest) or _("nothing"), **_label_ranges(view))
            )
        return {"type": command, "row": where[0], "column": where[1]}
    if command in ("random", "pass"):
        return {"type": "random_code" if command == "random" else "pass"}
    if command in ("code", "declare"):
        sheet = _sheet(view)
        entries = entries_from_text(" ".join(rest), sheet)
        if "letters" in view:  # check the code now, so that a typo costs nothing
            check_code(
                parse_code(entries, sheet, view["letters"]), sheet, view["letters"], view["options"]["real_words"]
            )
        return {"type": command, "letters": entries}
    raise IllegalAction(_("unknown command {command}; {help}").format(command=repr(command), help=_(HELP)))


# -- the ? menu ----------------------------------------------------------------------------
MENU_LINES = {
    "random_code": N_("random (draw a random code)"),
    "code": N_("code a@B h@F ... (build your code: five letters, each at its top-left corner point)"),
    "pass": "pass",
}
FREE_DECLARATION = N_("declare a@NA ... (your answer: five letters at their top-left corner points)")


def menu(legal: list[dict[str, Any]], view: dict[str, Any]) -> list[str]:
    """Every legal action as the command to type: the zones and squares one may ask, grouped."""
    lines = []
    for kind in dict.fromkeys(action["type"] for action in legal):
        group = [action for action in legal if action["type"] == kind]
        if kind in ("count", "filled"):
            lines.append(f"{kind} " + " | ".join(f"{a['row']} {a['column']}" for a in group))
        elif kind == "declare":
            lines += [f"declare {' '.join(text_position(entry) for entry in a['letters'])}" for a in group]
        else:
            lines.append(_(MENU_LINES.get(kind, kind)))
    kinds = {action["type"] for action in legal}
    if "random_code" in kinds:
        lines.append(_(MENU_LINES["code"]))
    if "declare" not in kinds and view.get("phase") in ("play", "final", "cascade") and legal:
        lines.append(_(FREE_DECLARATION))
    return lines


BAD_COORDINATE = N_(
    "{command} takes a row and a column, like '{command} O D', not {where}: "
    "the row is one letter {rows}, the column one letter {columns}"
)


def _label_ranges(view: dict[str, Any]) -> dict[str, str]:
    sheet = _sheet(view)
    rows, columns = sheet.row_labels, sheet.column_labels
    return {"rows": f"{rows[0]}-{rows[-1]}", "columns": f"{columns[0]}-{columns[-1]}"}


def _sheet(view: dict[str, Any]) -> Sheet:
    return Sheet(view["sheet"]["columns"], view["sheet"]["rows"])


# -- the log line --------------------------------------------------------------------------
def describe(seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """A public one-line account of an action (never a hidden code)."""
    parts = []
    for event in events:
        kind = event["type"]
        if kind == "code_made":
            parts.append(_("seat {seat} made a code").format(seat=shown(seat)))
        elif kind == "start":
            text = (
                _(
                    "round {round}: seat {asker} asks {count} handicap question(s), then seat {other} plays; "
                    "seat {first} is the first player"
                )
                if event["handicap"]
                else _("round {round}: seat {first} is the first player")
            )
            parts.append(
                text.format(
                    round=event["round"],
                    count=event["handicap"],
                    first=shown(event["first"]),
                    asker=shown(0),
                    other=shown(1),
                )
            )  # the handicap: seat 0 asks first
        elif kind == "answer":
            question = event["question"]
            answer = event["answer"]
            said = (
                (_("yes") if answer else _("no"))
                if isinstance(answer, bool)
                else _("{count} of 4 sides filled").format(count=answer)
            )
            parts.append(
                _("seat {seat} asks {question} ({row}, {column}): {answer}").format(
                    seat=shown(seat),
                    question=question["type"],
                    row=question["row"],
                    column=question["column"],
                    answer=said,
                )
            )
        elif kind == "declared":
            guess = " ".join(text_position(entry) for entry in event.get("letters", []))
            verdict = _("Correct") if event["correct"] else _("Incorrect")
            parts.append(
                _("seat {seat} declares {code} — {verdict}").format(seat=shown(seat), code=guess, verdict=verdict)
                if guess
                else _("seat {seat} declares — {verdict}").format(seat=shown(seat), verdict=verdict)
            )
        elif kind == "passed":
            parts.append(_("seat {seat} passes").format(seat=shown(seat)))
        else:
            parts.append(_describe_outcome(event))
    return "; ".join(parts) or f"{seat_name(seat)}: {action['type']}"


def _describe_outcome(event: dict[str, Any]) -> str:
    kind = event["type"]
    if kind == "final_chance":
        return _("seat {seat} gets one final declaration").format(seat=shown(event["seat"]))
    if kind == "last_submissions":
        seats = event["seats"]
        if len(seats) == 1:
            return _("seat {seat} may submit once more").format(seat=shown(seats[0]))
        return _("seats {seats} may each submit once more").format(seats=seat_list(seats))
    if kind == "eliminated":
        return _("seat {seat} is eliminated").format(seat=shown(event["seat"]))
    if kind == "draw":
        return _("round {round} is a draw").format(round=event["round"])
    if kind == "new_round":
        return _("round {round} begins: make new codes").format(round=event["round"])
    return _("game over ({reason}): winners {winners}").format(
        reason=_(event["reason"]), winners=seat_list(event["winners"]) or "-"
    )


# -- rendering -----------------------------------------------------------------------------
def render(view: dict[str, Any]) -> Group:
    """The seat's status, its own code, and its notes about the code it is cracking."""
    sheet = _sheet(view)
    parts: list[Any] = [Text(_status(view), style="bold")]
    if view["code"] is not None and view["codes"] is None:
        parts += _drawn_code(_("Your code"), view["code"], sheet, view["letters"])
    targets = [view["target"]] if view["target"] is not None else sorted({q["target"] for q in view["questions"]})
    for target in targets:
        parts += [
            Text(_("Notes on seat {seat}'s code:").format(seat=shown(target))),
            draw_notes(sheet, view["questions"], target),
        ]
    for seat, code in enumerate(view["codes"] or []):
        if code is not None:
            parts += _drawn_code(_("seat {seat}'s code").format(seat=shown(seat)), code, sheet, view["letters"])
    mine = [d for d in view["declarations"] if d["seat"] == view["seat"]]
    for declaration in mine:
        guess = " ".join(text_position(e) for e in declaration["letters"])
        verdict = _("Correct") if declaration["correct"] else _("Incorrect")
        parts.append(Text(_("you declared {code}: {verdict}").format(code=guess, verdict=verdict)))
    if view["legal_actions"]:
        parts.append(Text(_(HELP), style="dim"))
    return Group(*parts)


def _drawn_code(title: str, entries: list[dict[str, str]], sheet: Sheet, letters: str) -> list[Text]:
    cells = {cell for piece in parse_code(entries, sheet, letters) for cell in piece.cells}
    return [Text(f"{title}: " + " ".join(text_position(e) for e in entries)), draw_sheet(sheet, filled=cells)]


def _status(view: dict[str, Any]) -> str:
    who = _("spectator") if view["seat"] is None else seat_name(view["seat"])
    role = _(" (code creator)") if view["seat"] is not None and view["seat"] == view["creator"] else ""
    misses = ", ".join(f"{seat_name(s)}: {m}" for s, m in enumerate(view["misses"]) if m)
    return (
        _("Alphabet Code, {who}{role}, round {round}, phase {phase}, to move {to_move}, letters {letters}").format(
            who=who,
            role=role,
            round=view["round"],
            phase=view["phase"],
            to_move=seat_list(view["to_move"]) or "-",
            letters=view["letters"],
        )
        + (_(", misses {misses}").format(misses=misses) if misses else "")
        + (_(", eliminated {seats}").format(seats=seat_list(view["eliminated"])) if view["eliminated"] else "")
    )


def draw_notes(sheet: Sheet, questions: list[dict[str, Any]], target: int) -> Text:
    """The answers so far about ``target``'s code: zone counts, filled and empty squares."""
    about = [entry for entry in questions if entry["target"] == target]
    filled, empty = settled_squares(sheet, about)
    counts = {
        sheet.cell(entry["question"]["row"], entry["question"]["column"]): entry["answer"]
        for entry in about
        if entry["question"]["type"] == "count"
    }
    return draw_sheet(sheet, filled=filled, empty=empty, counts=counts)


def draw_sheet(
    sheet: Sheet, filled: Set[Cell] = frozenset(), empty: Set[Cell] = frozenset(), counts: dict[Cell, int] | None = None
) -> Text:
    """The lattice with its coordinates: ``━``/``┃`` filled squares, ``x`` known-empty ones,
    ``·`` corner points, zone counts as digits."""
    counts = counts or {}
    text = Text("   " + " ".join(sheet.column_labels) + "\n")
    for row in range(sheet.rows):
        text.append(f" {sheet.row_labels[row]} ")
        for column in range(sheet.columns):
            text.append(*_cell_glyph(sheet, (row, column), filled, empty, counts))
            text.append(" ")
        text.append("\n")
    return text


def _cell_glyph(
    sheet: Sheet, cell: Cell, filled: Set[Cell], empty: Set[Cell], counts: dict[Cell, int]
) -> tuple[str, str]:
    kind = sheet.kind(*cell)
    if kind == "corner":
        return "·", "dim"
    if kind == "zone":
        return (str(counts[cell]), "bold cyan") if cell in counts else (" ", "")
    if cell in filled:
        return ("━" if cell[0] % 2 == 0 else "┃"), "bold green"
    if cell in empty:
        return "x", "red"
    return ("-" if cell[0] % 2 == 0 else "¦"), "dim"
