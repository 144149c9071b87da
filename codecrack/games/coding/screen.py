"""The Coding at the terminal: the table and each opponent's sheet of known facts, short
commands, and real-time slapping in speed mode.

Commands (``?`` lists every legal move in these commands, grouped):

    order 9 8          choose your digit order: X1 = 9, X2 = 8 (also ``order 98``)
    take 20-39         take a data card            cannot      declare "cannot take"
    pass 2 to 3        pass hack card 2 of the row (1-5) to seat 3 (also ``give 2 3``)
    decode 2 D57       decode seat 2 as D 5 7      stop        stop after a correct decode
    reveal x1          reveal your X1 card (letter, x1, x2)
    slap / s           slap The First One (speed)  pass / p    not enough information yet
    answer 2 D57 3 A01 one-shot: write codes for seats 2 and 3

Seats are numbered from 1, as on the web page (the engine's seat 0 is seat 1 here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.agent import Agent
from ...core.errors import IllegalAction
from ...core.game import Game
from ...i18n import N_, _
from ...terminal.seats import seat_list, seat_name, shown, typed
from .cards import POSITIONS
from .crack_sheet import candidates
from .realtime import Screen, run_realtime

__all__ = ["FREE_FORM_ACTIONS", "describe", "parse", "render", "run"]

FREE_FORM_ACTIONS = {"answer"}

STEP_HINTS = {
    "order": N_("order X1 X2 (e.g. order 9 8)"),
    "data": N_("take TYPE (e.g. take 20-39) or cannot"),
    "give": N_("pass N to SEAT (hack card N of the row)"),
    "choose": N_(
        "take TYPE / cannot / pass N to SEAT (hack; with nothing to hack, cannot = pass) or decode SEAT CODE (or stop)"
    ),
    "penalty": N_("reveal letter|x1|x2 (wrong decode: show one of your cards)"),
    "open": N_("s + Enter to slap, p + Enter to pass (you may still slap after passing)"),
    "answer": N_("decode SEAT CODE, quickly!"),
    "stalemate": N_("reveal x1|x2"),
    "answers": N_("answer SEAT CODE [SEAT CODE ...]"),
}


HOW_TO_PLAY = N_("""Welcome to The Coding. Everyone holds a secret code: a letter (A-F) and two digits, X1 then X2
(order yours first: order 9 8). Crack the others' codes before they crack yours.
Hacking rounds: take a red data card your own code is NOT in (take 20-39), or say cannot; then
pass a hack card from the row to another player (pass 2 to 3): it turns green if their code
matches it, red if not. Everyone sees every card, so each one narrows a code down.
Then decode: name a seat and its code (decode 2 D57). Right: that player is out, and you may go
on or stop. Wrong: you reveal one of your own cards. The last player still hidden wins.
Speed mode: after the rounds, slap (s) to earn the right to answer, quickly. One-shot: write
every code at the end (answer 2 D57 3 A01), for points. Type ? at any prompt for your moves.""")


# -- rendering ---------------------------------------------------------------------------------
SHEET_COLUMNS = (N_("seat"), N_("status"), N_("data cards"), N_("hack cards"), N_("code"))


def hack_text(card: dict[str, Any]) -> str:
    values = ",".join(str(v) for v in card["values"])
    return f"{card['position']}∈{{{values}}}"


def _sheet_row(view: dict[str, Any], sheet: dict[str, Any]) -> list[Any]:
    seat = sheet["seat"]
    name = f"{shown(seat)}" + (_(" (you)") if seat == view["seat"] else "")
    if view["first_one"] == seat:
        name += " ★"
    status = (
        _("OUT")
        if sheet["out"]
        else ("" if not sheet["wrong_decodes"] else _("{count} wrong").format(count=sheet["wrong_decodes"]))
    )
    hacks = Text()
    for hack in sheet["hacks"]:
        hacks.append(hack_text(hack["card"]) + " ", style="green" if hack["green"] else "red")
    face_up = " ".join(str(sheet["revealed"][p]) if sheet["revealed"][p] is not None else "?" for p in POSITIONS)
    spoken = sheet["cannot"] if view["options"]["notes"] else []
    data = " ".join(sheet["data"]) + "".join(f" {_('cannot')}[{','.join(c)}]" for c in spoken)
    row = [name, status, data, hacks, sheet["code"] or face_up]
    if view["options"]["notes"]:
        cands = candidates(view, seat)
        row.append(" | ".join("".join(str(v) for v in cands[p]) for p in POSITIONS))
    return row


def _stalemate_lines(view: dict[str, Any]) -> list[Text]:
    """The leftover code cards, and who is waiting for the next stalemate step."""
    table_cards = " ".join(map(str, view["table"]["letters"] + view["table"]["digits"]))
    leftover = _("Leftover code cards: {count} aside, face up: {cards}").format(
        count=view["code_pile"], cards=table_cards or "-"
    )
    if view["phase"] == "cracking":
        slapper = "-" if view["slapper"] is None else shown(view["slapper"])
        return [
            Text(
                leftover
                + "   "
                + _("passing: {seats}   slapper: {slapper}").format(
                    seats=seat_list(view["passed"]) or "-", slapper=slapper
                )
            )
        ]
    if view["phase"] == "decoding":
        remaining = sum(not sheet["out"] for sheet in view["sheets"])
        return [
            Text(
                leftover
                + "   "
                + _("passes in a row: {count} of {remaining}").format(count=view["passes_in_row"], remaining=remaining)
            )
        ]
    return []


def render(view: dict[str, Any]) -> Panel:
    """The table, your code, every seat's sheet, and what to type."""
    options = view["options"]
    head = _("The Coding, {mode} — phase {phase}, step {step}, round {round}/{rounds} — to move: {to_move}").format(
        mode=options["mode"],
        phase=view["phase"],
        step=view["step"],
        round=view["round"],
        rounds=view["rounds"],
        to_move=seat_list(view["to_move"]) or "-",
    )
    parts: list[Any] = [Text(head, style="bold")]
    own = view.get("own")
    if own is not None:
        code = own["code"] or _("{letter} with digits {x} and {y} (order them)").format(
            letter=own["letter"], x=own["digits"][0], y=own["digits"][1]
        )
        parts.append(Text(_("Your code: {code}").format(code=code), style="bold cyan"))
    stacks = " ".join(f"{k}×{n}" for k, n in view["data_stacks"].items() if n)
    parts.append(Text(_("Data stacks: {stacks}").format(stacks=stacks or _("(none left)"))))
    row = "  ".join(f"{i}:{hack_text(c)}" for i, c in enumerate(view["hack_row"], 1))
    parts.append(Text(_("Hack row: {row}   deck: {count}").format(row=row or _("(empty)"), count=view["hack_deck"])))
    parts.extend(_stalemate_lines(view))
    sheets = Table(title=_("Known facts"), show_lines=False)
    for column in SHEET_COLUMNS:
        sheets.add_column(_(column))
    if options["notes"]:
        sheets.add_column(_("possible letter | x1 | x2"))
    for sheet in view["sheets"]:
        sheets.add_row(*_sheet_row(view, sheet))
    parts.append(sheets)
    if view["result"] is not None:
        parts.append(Text("\n".join(result_lines(view["result"])), style="bold green"))
    elif view["seat"] in view["to_move"]:
        parts.append(
            Text(
                _("Your move: {hint}   (? for the menu)").format(hint=_(STEP_HINTS.get(view["step"], ""))),
                style="yellow",
            )
        )
    return Panel(Group(*parts))


def result_lines(result: dict[str, Any]) -> list[str]:
    """The end: who won and why, every code, and in one-shot everyone's written answers."""
    seat_value = _("seat {seat} {value}")
    winners = ", ".join(seat_name(seat) for seat in result["winners"]) or _("nobody")
    lines = [_("Won by {names} ({reason}).").format(names=winners, reason=_(result["reason"]))]
    lines.append(
        _("Codes: {codes}.").format(
            codes=", ".join(
                seat_value.format(seat=shown(seat), value=code) for seat, code in enumerate(result["codes"])
            )
        )
    )
    if result["scores"]:
        lines.append(
            _("Scores: {scores}.").format(
                scores=", ".join(
                    seat_value.format(seat=shown(seat), value=score) for seat, score in enumerate(result["scores"])
                )
            )
        )
    for seat, answers in (result.get("answers") or {}).items():
        written = ", ".join(seat_value.format(seat=shown(int(target)), value=code) for target, code in answers.items())
        lines.append(_("seat {seat} wrote: {written}.").format(seat=shown(int(seat)), written=written))
    return lines


# -- the ? menu --------------------------------------------------------------------------------
def menu(legal: list[dict[str, Any]], view: dict[str, Any]) -> list[str]:
    """Every legal action as the command to type, grouped by kind; decodes counted per seat."""
    kinds = list(dict.fromkeys(action["type"] for action in legal))
    lines = []
    for kind in kinds:
        group = [action for action in legal if action["type"] == kind]
        lines.append(MENU_LINES.get(kind, lambda g, v, kind=kind: kind)(group, view))
    return lines


def _numbers(values: Any) -> str:
    return ", ".join(str(value) for value in dict.fromkeys(values))


def _give_line(group: list[dict[str, Any]], view: dict[str, Any]) -> str:
    numbers = {card["id"]: number for number, card in enumerate(view["hack_row"], 1)}
    cards = _numbers(numbers[action["card"]] for action in group)
    return _(GIVE_MENU).format(cards=cards, seats=seat_list({action["to"] for action in group}))


def _decode_line(group: list[dict[str, Any]], view: dict[str, Any]) -> str:
    targets = list(dict.fromkeys(action["target"] for action in group))
    per_seat = [
        _(DECODES_PER_SEAT).format(seat=shown(target), count=sum(a["target"] == target for a in group))
        for target in targets
    ]
    example = group[0]
    return _(DECODE_MENU).format(seat=shown(example["target"]), code=example["code"]) + "; ".join(per_seat)


def _answer_line(group: list[dict[str, Any]], view: dict[str, Any]) -> str:
    return _(ANSWER_MENU).format(seats=seat_list({int(seat) for action in group for seat in action["codes"]}))


GIVE_MENU = N_("pass N to SEAT: hack card {cards} to seat {seats}")
DECODE_MENU = N_("decode SEAT CODE, a letter and two digits (e.g. decode {seat} {code}); ")
DECODES_PER_SEAT = N_("seat {seat}: {count} codes")
ANSWER_MENU = N_("answer SEAT CODE [SEAT CODE ...] for seat {seats}")
MENU_LINES = {
    "order": lambda group, view: " | ".join(f"order {a['x1']} {a['x2']}" for a in group),
    "take": lambda group, view: "take " + "|".join(a["card"] for a in group),
    "give": _give_line,
    "decode": _decode_line,
    "reveal": lambda group, view: "reveal " + "|".join(a["card"] for a in group),
    "answer": _answer_line,
    "slap": lambda group, view: _("s (slap The First One)"),
    "pass": lambda group, view: _("p (pass)") if view["step"] == "open" else "pass",
}


# -- parsing -----------------------------------------------------------------------------------
def _int(word: str, what: str) -> int:
    if not word.isdecimal():
        raise IllegalAction(_("{what} must be a number, not {word}").format(what=_(what), word=repr(word)))
    return int(word)


def _seat(word: str, view: dict[str, Any]) -> int:
    """The engine's seat for a seat number typed as the board shows it (from 1)."""
    return typed(word, len(view["sheets"]))


def _give(words: list[str], view: dict[str, Any]) -> dict[str, Any]:
    words = [w for w in words if w != "to"]
    if len(words) != 2:
        raise IllegalAction(_("pass a hack card like: pass 2 to 3 (card 2 of the row to seat 3)"))
    index, seat = _int(words[0], N_("the hack card number")), _seat(words[1], view)
    row = view["hack_row"]
    if not 1 <= index <= len(row):
        raise IllegalAction(_("the hack row has cards 1 to {last}").format(last=len(row)))
    return {"type": "give", "card": row[index - 1]["id"], "to": seat}


def _order(words: list[str]) -> dict[str, Any]:
    digits = "".join(words)
    if len(digits) != 2 or not digits.isdecimal():
        raise IllegalAction(_("order your digits like: order 9 8 (X1 = 9, X2 = 8)"))
    return {"type": "order", "x1": int(digits[0]), "x2": int(digits[1])}


def _answer(words: list[str], view: dict[str, Any]) -> dict[str, Any]:
    if not words or len(words) % 2:
        raise IllegalAction(_("answer like: answer 2 D57 3 A01 (seat, code, seat, code ...)"))
    codes = {_seat(words[i], view): words[i + 1].upper() for i in range(0, len(words), 2)}
    if view["seat"] in codes:
        raise IllegalAction(_("write the codes of your opponents, not your own"))
    return {"type": "answer", "codes": {str(seat): code for seat, code in codes.items()}}


def parse(text: str, view: dict[str, Any]) -> dict[str, Any]:
    """Turn a typed command into an action (the engine checks whether it is legal)."""
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction(_("type a command, or ? for the menu"))
    verb, rest = words[0], words[1:]
    if verb in ("s", "slap"):
        return {"type": "slap"}
    if verb in ("p", "pass") and (not rest or view["step"] == "open"):
        return {"type": "pass"}
    if verb in ("pass", "give", "hack"):
        return _give(rest, view)
    if verb == "take" and len(rest) == 1:
        return {"type": "take", "card": rest[0].upper()}
    if verb in ("cannot", "stop", "timeout") and not rest:
        return {"type": verb}
    if verb == "order":
        return _order(rest)
    if verb == "decode" and len(rest) == 2:
        return {"type": "decode", "target": _seat(rest[0], view), "code": rest[1].upper()}
    if verb == "reveal" and len(rest) == 1 and rest[0] in POSITIONS:
        return {"type": "reveal", "card": rest[0]}
    if verb == "answer":
        return _answer(rest, view)
    raise IllegalAction(
        _("unknown command {text}; try: {hint}").format(
            text=repr(text.strip()), hint=_(STEP_HINTS.get(view["step"], "?"))
        )
    )


# -- the public log ----------------------------------------------------------------------------
SEAT_FIELDS = ("seat", "to", "target", "first", "first_one")  # the events' fields that name one seat
SEATS_FIELDS = ("seats", "targets", "winners")  # and those that list seats


def _event_text(event: dict[str, Any]) -> str:
    kind = event["type"]
    words: dict[str, Any] = {
        **event,
        "seat": None,
        **{key: shown(event[key]) for key in SEAT_FIELDS if event.get(key) is not None},
        **{key: seat_list(event[key]) for key in SEATS_FIELDS if key in event},
        **{key: _(event[key]) for key in ("why", "reason") if key in event},
    }  # the engine marks them N_()
    if kind == "cannot":
        words["offered"] = ", ".join(event["offered"])
        return (
            _("seat {seat} cannot take a data card (offered: {offered})")
            if event["offered"]
            else _("seat {seat} has nothing to hack and passes")
        ).format(**words)
    if kind == "hacked":
        words["card"] = hack_text(event["card"])
        return (
            _("seat {seat} passed {card} to seat {to}: GREEN")
            if event["green"]
            else _("seat {seat} passed {card} to seat {to}: RED")
        ).format(**words)
    if kind == "decode":
        return (
            _("seat {seat} decodes seat {target} as {code}: CORRECT")
            if event["correct"]
            else _("seat {seat} decodes seat {target} as {code}: wrong")
        ).format(**words)
    if kind == "dealt":
        words["cards"] = " ".join(map(str, event["letters"] + event["digits"]))
    return _(EVENT_TEXTS[kind]).format(**words) if kind in EVENT_TEXTS else f"{kind}: {event}"


EVENT_TEXTS = {
    "ordered": N_("seat {seat} ordered their code"),
    "round": N_("round {round} starts; seat {first_one} holds The First One"),
    "took": N_("seat {seat} took data card {card}"),
    "no_hack_cards": N_("no hack card is left: the hacking rounds end"),
    "phase": N_("{phase} phase begins"),
    "revealed": N_("seat {seat} reveals {card} = {value}"),
    "out": N_("seat {seat} is out ({why}); code {code}"),
    "stop": N_("seat {seat} stops"),
    "slap": N_("seat {seat} SLAPS The First One!"),
    "pass": N_("seat {seat} passes"),
    "timeout": N_("seat {seat} hesitated too long"),
    "dealt": N_("stalemate: leftover cards face up: {cards}"),
    "stalemate_reveal": N_("stalemate: seats {seats} each reveal a number card"),
    "chose_reveal": N_("seat {seat} has chosen a card to reveal"),
    "answered": N_("seat {seat} wrote answers for seats {targets}"),
    "over": N_("game over: winners {winners} ({reason})"),
}


def describe(seat: int, action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """One public line from the events only (the action itself may hold secrets)."""
    return "; ".join(_event_text(event) for event in events) or _("seat {seat} acted").format(seat=shown(seat))


def run(game: Game, agents: Mapping[int, Agent], console: Console) -> None:
    """Play to the end, in real time in speed mode with a human (:mod:`.realtime`)."""
    run_realtime(game, agents, console, Screen(describe, parse, render))
