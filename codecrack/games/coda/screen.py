"""Coda at the terminal: draw a seat's view with Rich, read short commands, log public events.

Tiles read like ``[B5]``: the letter is the colour (B black, W white), then the value.
A face-up tile is underlined ``[B5]``, a face-down tile whose value you know is ``(b5)``, an unknown
face-down tile is ``[B?]``.

>>> view = {"seat": 0, "options": {"draw": "classic", "dashes": True}, "phase": "guess",
...         "rows": [[], [{"id": 0, "color": "white", "revealed": False, "value": None}]],
...         "eliminated": [], "legal_actions": []}
>>> parse("guess 2 0 w-", view)
{'type': 'guess', 'target': 1, 'index': 0, 'color': 'white', 'value': '-'}
>>> parse("draw b", view)
{'type': 'draw', 'color': 'black'}
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
from ...core.runner import run_game
from ...i18n import N_, _
from ...terminal.human import ask_again
from ...terminal.seats import seat_name, shown
from .rules import CodaGame
from .tiles import COLORS, label, parse_tile

View = dict[str, Any]
Event = dict[str, Any]

TILE_STYLE = {"black": "bold white on grey15", "white": "bold black on grey93"}
HISTORY_LINES = 14
COMMANDS = (
    "draw [black|white]",
    N_("guess SEAT INDEX TILE (e.g. guess 2 1 b5, b- for a dash)"),
    "stop",
    "place INDEX",
    "reveal INDEX",
    "opening BLACKS",
    N_("ready [INDEX per opening dash]"),
    N_("? for a numbered menu"),
)


# -- rendering -----------------------------------------------------------------------
def tile_text(tile: dict[str, Any]) -> Text:
    """``[B5]`` face up, ``(b5)`` face down but known to you, ``[B?]`` unknown."""
    if tile["revealed"]:
        return Text(f"[{label(tile['color'], tile['value'])}]", style=TILE_STYLE[tile["color"]] + " underline")
    if tile["value"] is not None:
        return Text(f"({label(tile['color'], tile['value']).lower()})", style=TILE_STYLE[tile["color"]] + " italic")
    return Text(f"[{label(tile['color'], None)}]", style=TILE_STYLE[tile["color"]])


def row_text(row: list[dict[str, Any]]) -> Text:
    """The tiles on one line, their indices under them."""
    tiles, indices = Text(), Text(style="dim")
    for index, tile in enumerate(row):
        cell = tile_text(tile)
        width = max(len(cell), 4) + 1
        tiles.append(cell).append(" " * (width - len(cell)))
        indices.append(f"{index:^{len(cell)}}" + " " * (width - len(cell)))
    return Text.assemble(tiles, "\n", indices) if row else Text(_("(arranging...)"), style="dim")


def row_name(seat: int, viewer: int | None) -> str:
    return _("seat {seat} (you)").format(seat=shown(seat)) if seat == viewer else seat_name(seat)


def rows_table(view: View) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    for seat, row in enumerate(view["rows"]):
        out = seat in view["eliminated"]
        status = _("out") if out else (_("to move") if seat in view["to_move"] else "")
        table.add_row(
            Text(row_name(seat, view["seat"]), style="bold" if seat == view["seat"] else ""),
            row_text(row),
            Text(status, style="red" if out else "green"),
        )
    return table


def pile_text(pile: dict[str, int]) -> str:
    if "total" in pile:
        return _("deck: {count} tiles").format(count=pile["total"])
    return _("pile: {black} black, {white} white").format(black=pile["black"], white=pile["white"])


def header(view: View) -> Text:
    options = view["options"]
    rounds = (
        _("round {round}/{rounds}, ").format(round=view["round"], rounds=options["rounds"])
        if options["rounds"] > 1
        else ""
    )
    state = (
        _("game over")
        if view["phase"] == "over"
        else _("phase {phase}, seat {seat} plays").format(phase=view["phase"], seat=shown(view["current"]))
    )
    text = Text(f"Coda: {rounds}{state}; {pile_text(view['pile'])}", style="bold")
    if options["rounds"] > 1:
        text.append(
            "\n"
            + _("scores: {scores}").format(
                scores=", ".join(f"{seat_name(s)}: {p}" for s, p in enumerate(view["scores"]))
            )
        )
    return text


def hand_text(view: View) -> Text | None:
    """The drawn tile and any opening dash still to place."""
    lines = []
    drawn = view["drawn"]
    if drawn is not None:
        mine = view["seat"] == view["current"]
        if drawn["revealed"]:
            text = _("You drew {tile}, now face up.") if mine else _("Seat {seat} drew {tile}, now face up.")
        else:
            text = _("You drew {tile}.") if mine else _("Seat {seat} drew {tile}.")
        lines.append(text.format(seat=shown(view["current"]), tile=tile_label(drawn)))
    if view["unplaced"]:
        tiles = " ".join(tile_label(t) for t in view["unplaced"])
        lines.append(
            _("Your dash(es) to place: {tiles}. ready INDEX puts one before tile INDEX (0 = far left).").format(
                tiles=tiles
            )
        )
    return Text("\n".join(lines), style="cyan") if lines else None


def tile_label(tile: dict[str, Any]) -> str:
    return f"[{label(tile['color'], tile['value'])}]"


def history_panel(view: View) -> Panel:
    """The current round's events, or with notes=false only what happened since your last move."""
    events = round_events(view["history"])
    title = _("history")
    if not view["options"]["notes"]:
        mine = [i for i, e in enumerate(events) if e.get("seat") == view["seat"]]
        events = events[mine[-1] + 1 :] if mine else events
        title = _("since your last move (no notes)")
    lines = [event_text(event) for event in events][-HISTORY_LINES:]
    return Panel("\n".join(lines) or _("nothing yet"), title=title, title_align="left")


def round_events(history: list[Event]) -> list[Event]:
    starts = [i for i, event in enumerate(history) if event["type"] == "round"]
    return history[starts[-1] :] if starts else history


def prompt_text(view: View) -> Text | None:
    if view["seat"] not in view["to_move"]:
        return None
    hints = {
        "opening": lambda: _("Choose your opening tiles: opening N takes N black tiles, the rest white."),
        "memorize": lambda: _("Memorize your tiles, then type ready: afterwards you will not see their values."),
        "arrange": lambda: arrange_hint(view),
        "place": lambda: place_hint(view),
        "draw": lambda: (
            _("Draw a tile: draw.")
            if view["options"]["draw"] == "deck"
            else _("Draw a tile: draw black or draw white.")
        ),
        "guess": lambda: guess_hint(view),
        "reveal": lambda: _("Wrong guess with an empty pile: turn up one of your own tiles: reveal INDEX."),
    }
    hint = hints.get(view["phase"])
    return Text(hint() if hint else "", style="bold yellow")


def guess_hint(view: View) -> str:
    """How to guess, with an example naming the first opponent still playing."""
    opponent = next(
        seat for seat in range(len(view["rows"])) if seat != view["seat"] and seat not in view["eliminated"]
    )
    text = (
        _(
            "Guess a face-down tile: guess SEAT INDEX TILE, e.g. guess {seat} 0 b3, or stop to keep your drawn tile hidden."
        )
        if view["hits_this_turn"]
        else _("Guess a face-down tile: guess SEAT INDEX TILE, e.g. guess {seat} 0 b3.")
    )
    return text.format(seat=shown(opponent))


def place_hint(view: View) -> str:
    """Where the drawn tile may go, face up (after a miss or a timeout) or face down."""
    places = ", ".join(str(action["index"]) for action in view["legal_actions"])
    text = (
        _("Place your drawn tile (face up): place INDEX, one of {places} (INDEX = before that tile; 0 = far left).")
        if view["drawn"]["revealed"]
        else _(
            "Place your drawn tile (face down): place INDEX, one of {places} (INDEX = before that tile; 0 = far left)."
        )
    )
    return text.format(places=places)


LEGEND = N_("[B5] face up   (b5) face down, known to you   [B?] face down   B black, W white, - dash")


def arrange_hint(view: View) -> str:
    """The dashes game's setup: say where the opening dashes go (if any), and that the row is ready."""
    memory = view["options"]["memory"]
    if not view["unplaced"]:
        return (
            _("Type ready when your row is arranged and memorized: afterwards you will not see its values.")
            if memory
            else _("Type ready when your row is arranged.")
        )
    if len(view["unplaced"]) == 1:
        text = (
            _(
                "Place your dash and say ready and memorized: afterwards you will not see its values: ready INDEX (0 = far left)."
            )
            if memory
            else _("Place your dash and say ready: ready INDEX (0 = far left).")
        )
    else:
        text = (
            _(
                "Place your dashes and say ready and memorized: afterwards you will not see its values: ready INDEX INDEX "
                "(the second counted after the first went in) (0 = far left)."
            )
            if memory
            else _(
                "Place your dashes and say ready: ready INDEX INDEX (the second counted after the first went in) (0 = far left)."
            )
        )
    return text


def render(view: View) -> Group:
    parts = [header(view), rows_table(view), Text(_(LEGEND), style="dim"), hand_text(view), history_panel(view)]
    if view["result"] is not None:
        winners = ", ".join(seat_name(s) for s in view["result"]["winners"])
        parts.append(Text(_("Winner(s): {names}").format(names=winners), style="bold green"))
    parts.append(prompt_text(view))
    return Group(*[part for part in parts if part is not None])


# -- events as text ------------------------------------------------------------------
def event_text(event: Event) -> str:
    """One public event in words."""
    kind = event["type"]
    words = {
        **event,
        "seat": None,
        "color": _(COLOR_WORDS[event["color"]]) if "color" in event else None,
        **{key: shown(event[key]) for key in SEAT_FIELDS if event.get(key) is not None},
    }
    if kind in ("guess", "reveal") or (kind == "insert" and event["revealed"]):
        words["tile"] = label(event["color"], event["value"])
    if kind == "guess":
        return (
            _("seat {seat} guesses seat {target}'s tile {index} is {tile}: HIT")
            if event["hit"]
            else _("seat {seat} guesses seat {target}'s tile {index} is {tile}: miss")
        ).format(**words)
    if kind == "insert":
        return (
            _("seat {seat} inserts a {color} tile face up as {tile} at index {index}")
            if event["revealed"]
            else _("seat {seat} inserts a {color} tile face down at index {index}")
        ).format(**words)
    if kind == "deal":
        words["row"] = " ".join(c[0].upper() for c in event["colors"])
    if kind == "round_over" and any(event["points"]):
        words["points"] = points_text(event["points"])
        return _("round {round} won by seat {winner}; points this round {points}").format(**words)
    return _(EVENT_TEXTS[kind]).format(**words) if kind in EVENT_TEXTS else str(event)


SEAT_FIELDS = ("seat", "target", "first", "winner")  # the events' fields that name a seat
EVENT_TEXTS = {
    "round": N_("round {round} begins; seat {first} starts"),
    "opening": N_("seat {seat} takes {black} black tile(s) for the opening"),
    "deal": N_("seat {seat} stands its row: {row}"),
    "ready": N_("seat {seat} is ready"),
    "draw": N_("seat {seat} draws a {color} tile"),
    "stop": N_("seat {seat} stops"),
    "reveal": N_("seat {seat} turns up its tile {index}: {tile}"),
    "eliminated": N_("seat {seat} is out"),
    "timeout": N_("seat {seat} ran out of time"),
    "round_over": N_("round {round} won by seat {winner}"),
}
COLOR_WORDS = {"black": N_("black"), "white": N_("white")}  # the colours as event_text shows them


def points_text(points: list[int]) -> str:
    """``seat 1: 0, seat 2: 1``: a round's points, by seat."""
    return ", ".join(f"{seat_name(seat)}: {value}" for seat, value in enumerate(points))


def describe(seat: int, action: dict[str, Any], events: list[Event]) -> str:
    """The public log line of one action: its events ("" when the action was private)."""
    return "; ".join(event_text(event) for event in events)


WELCOME = N_("""Welcome to Coda. Every player has a row of tiles sorted from low to high (black before
white on equal numbers; a dash can stand anywhere). On your turn draw a tile, then guess a
face-down tile of an opponent: its seat, its index, its colour and number (guess 2 1 b5).
Right: it turns face up, and you guess again or stop (you then place your drawn tile face down).
Wrong: your drawn tile turns face up, you place it, and your turn ends. A drawn tile goes in its
sorted place; next to a dash you choose the side. A player with no face-down tile is
out; the last one with a face-down tile wins. Type ? at any prompt for a numbered list of moves.""")


def run(game: CodaGame, agents: Mapping[int, Agent], console: Console) -> None:
    """The default loop, but with notes=false and a human seated there is no running log (the
    human's screen shows only what happened since their last move)."""
    humans = any(agent.name == "human" for agent in agents.values())
    notes = game.options.notes or not humans
    if humans:
        console.print(Panel(_(WELCOME), title=_("How to play"), title_align="left"))

    def log(seat: int, action: dict[str, Any], events: list[Event]) -> None:
        line = describe(seat, action, events)
        if line and notes:
            console.print(line)

    run_game(game, agents, on_step=log, on_refused=ask_again(agents))


def summary(game: CodaGame) -> list[str]:
    """At the end the host shows every row in full (the winner's face-down tiles too), and each
    round's points in a tournament."""
    lines = [
        _("seat {seat}'s tiles: {tiles}").format(
            seat=shown(seat), tiles=" ".join(f"[{label(tile.color, tile.value)}]" for tile in row)
        )
        for seat, row in enumerate(game.rows)
    ]
    rounds = (game.result or {}).get("rounds", [])
    if len(rounds) > 1:
        lines += [
            _("round {round}: won by seat {winner}; points {points}").format(
                round=r["round"], winner=shown(r["winner"]), points=points_text(r["points"])
            )
            for r in rounds
        ]
    return lines


# -- the ? menu ----------------------------------------------------------------------
def menu(legal: list[dict[str, Any]], view: View) -> list[str]:
    """Every legal action as the command to type, grouped: one line per kind, one per guessable tile."""
    lines = []
    kinds = list(dict.fromkeys(action["type"] for action in legal))
    for kind in kinds:
        group = [action for action in legal if action["type"] == kind]
        if kind == "guess":
            lines += guess_menu(group)
        elif kind == "draw":
            lines.append(" | ".join(" ".join(["draw", action.get("color", "")]).strip() for action in group))
        elif kind in ("opening", "place", "reveal"):
            key = "black" if kind == "opening" else "index"
            lines.append(f"{kind} " + "|".join(str(action[key]) for action in group))
        else:
            lines.append(kind)
    return lines


def guess_menu(guesses: list[dict[str, Any]]) -> list[str]:
    """``guess 1 2 b0|b1|...``: one line per face-down tile, with every value it may be."""
    tiles: dict[tuple[int, int], list[str]] = {}
    for action in guesses:
        tiles.setdefault((action["target"], action["index"]), []).append(
            label(action["color"], action["value"]).lower()
        )
    return [f"guess {shown(target)} {index} {'|'.join(values)}" for (target, index), values in tiles.items()]


# -- parsing -------------------------------------------------------------------------
def parse(text: str, view: View) -> dict[str, Any]:
    """Turn a short command into an action, or raise IllegalAction saying what to type."""
    words = text.lower().split()
    if not words:
        raise IllegalAction(_("type a command; ? shows the legal actions"))
    command, args = words[0], words[1:]
    if command == "stop":
        no_arguments(command, args)
        return {"type": command}
    if command == "ready":
        return parse_ready(args, view)
    if command == "draw":
        return parse_draw(args, view)
    if command == "guess":
        return parse_guess(args, view)
    if command == "opening":
        return {"type": command, "black": one_number(command, args)}
    if command in ("place", "reveal"):
        return {"type": command, "index": own_index(command, one_number(command, args), view)}
    raise IllegalAction(
        _("unknown command {command}; commands: {commands}").format(
            command=repr(command), commands="; ".join(_(command) for command in COMMANDS)
        )
    )


def no_arguments(command: str, args: list[str]) -> None:
    if args:
        raise IllegalAction(_("{command} takes nothing after it").format(command=command))


def one_number(command: str, args: list[str]) -> int:
    if len(args) != 1 or not args[0].isdecimal():
        what = _("how many black tiles") if command == "opening" else _("a tile index (0 = leftmost)")
        raise IllegalAction(
            _("{command} needs one number: {what}, e.g. {command} 1").format(command=command, what=what)
        )
    return int(args[0])


def parse_ready(args: list[str], view: View) -> dict[str, Any]:
    """``ready``, or ``ready INDEX ...`` with one index per opening dash."""
    count = len(view["unplaced"])
    if len(args) != count or not all(arg.isdecimal() for arg in args):
        if not count:
            raise IllegalAction(_("ready takes nothing after it (you have no dash to place)"))
        raise IllegalAction(
            _("ready needs {count} index(es), one per dash: ready {indices}").format(
                count=count, indices=" ".join(["INDEX"] * count)
            )
        )
    return {"type": "ready", "dashes": [int(arg) for arg in args]} if count else {"type": "ready"}


def own_index(command: str, index: int, view: View) -> int:
    """Check an index into the seat's own row: place goes before tile INDEX, reveal turns it up."""
    row = view["rows"][view["seat"]]
    places = [action["index"] for action in view["legal_actions"] if action["type"] == "place"]
    if command == "place" and index not in places:
        raise IllegalAction(
            _("place takes {places}").format(places=", ".join(map(str, places)))
            if places
            else _("place takes 0 (far left) to {last} (far right)").format(last=len(row))
        )
    if command == "reveal" and (index >= len(row) or row[index]["revealed"]):
        hidden = [str(i) for i, tile in enumerate(row) if not tile["revealed"]]
        raise IllegalAction(_("reveal one of your face-down tiles: {tiles}").format(tiles=", ".join(hidden)))
    return index


def parse_draw(args: list[str], view: View) -> dict[str, Any]:
    if view["options"]["draw"] == "deck":
        no_arguments("draw (deck mode: the top tile)", args)
        return {"type": "draw"}
    if not args:
        raise IllegalAction(_("say which colour: draw black or draw white"))
    colors = [c for c in COLORS if c.startswith(args[0])] if len(args) == 1 else []
    if len(colors) != 1:
        raise IllegalAction(_("draw black or draw white (b/w are fine), not {text}").format(text=repr(" ".join(args))))
    return {"type": "draw", "color": colors[0]}


def parse_guess(args: list[str], view: View) -> dict[str, Any]:
    if len(args) < 3 or not args[0].isdecimal() or not args[1].isdecimal():
        raise IllegalAction(_("guess SEAT INDEX TILE, e.g. guess 2 1 b5 (seat 2, its tile 1, black 5; b- a dash)"))
    target, index = int(args[0]) - 1, int(args[1])  # seats are typed as the board shows them
    rows = view["rows"]
    if target == view["seat"]:
        raise IllegalAction(_("you cannot guess your own tiles; name an opponent's seat"))
    if not 0 <= target < len(rows) or target in view["eliminated"]:
        raise IllegalAction(_("seat {seat} is not an opponent still playing").format(seat=args[0]))
    if index >= len(rows[target]):
        raise IllegalAction(
            _("seat {seat} has tiles 0 to {last}").format(seat=shown(target), last=len(rows[target]) - 1)
        )
    if rows[target][index]["revealed"]:
        raise IllegalAction(_("seat {seat}'s tile {index} is already face up").format(seat=shown(target), index=index))
    color, value = parse_tile("".join(args[2:]))  # IllegalAction naming the problem
    if value == "-" and not view["options"]["dashes"]:
        raise IllegalAction(_("there are no dashes in this game"))
    return {"type": "guess", "target": target, "index": index, "color": color, "value": value}
