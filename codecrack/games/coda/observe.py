"""Turn one seat's view into a belief :class:`~.belief.Position`, and keep a seat's own memory.

Everything here reads only ``view(seat)``: the rows as the seat sees them, the current round's
public history (missed guesses, the guessers' own claims, which tile entered which row) and, in
the memory variant, what the seat remembers of its own tiles.
"""

from __future__ import annotations

from typing import Any, overload

from .belief import ANY, BLACK, DASH, WHITE, Position, Tile

COLORS = {"black": BLACK, "white": WHITE}
COLOR_NAMES = {BLACK: "black", WHITE: "white"}


@overload
def value_code(value: int | str) -> int: ...
@overload
def value_code(value: None) -> None: ...
def value_code(value: int | str | None) -> int | None:
    """A view's tile value as a belief value: 0-11, :data:`DASH` for ``"-"``, ``None`` if hidden."""
    if value is None:
        return None
    return DASH if value == "-" else int(value)


def value_name(value: int) -> int | str:
    """The inverse of :func:`value_code` for actions: ``DASH`` becomes ``"-"``."""
    return "-" if value == DASH else value


def round_events(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The public events of the current round (after the last ``round_over``)."""
    events: list[dict[str, Any]] = view.get("history", [])
    for at in range(len(events) - 1, -1, -1):
        if events[at].get("type") == "round_over":
            return events[at + 1 :]
    return events


def tile_colours(rows: list[list[dict[str, Any]]]) -> dict[tuple[int, int], str]:
    """The colour of every visible tile, by ``(seat, id)``."""
    return {(seat, tile["id"]): tile["color"] for seat, row in enumerate(rows) for tile in row}


def missed_values(events: list[dict[str, Any]], rows: list[list[dict[str, Any]]]) -> dict[tuple[int, int], int]:
    """Bitmask of values ruled out for each tile ``(seat, id)`` by missed guesses of its colour."""
    colours = tile_colours(rows)
    missed: dict[tuple[int, int], int] = {}
    for event in events:
        if event.get("type") != "guess" or event.get("hit"):
            continue
        place = (event["target"], event["tile"])
        if colours.get(place) == event["color"]:
            missed[place] = missed.get(place, 0) | 1 << value_code(event["value"])
    return missed


def guesser_lacks(events: list[dict[str, Any]], rows: list[list[dict[str, Any]]]) -> dict[tuple[int, int], int]:
    """Values each tile ``(seat, id)`` cannot hold if players never name a tile they hold.

    A guess of colour ``c`` and value ``v`` says the guesser holds no ``c v``: neither in its row
    at that moment nor in the tile it drew that turn (which enters the row when the turn ends).
    """
    colours = tile_colours(rows)
    entered = {(e["seat"], e["tile"]) for e in events if e.get("type") == "insert"}
    present = {seat: {tile["id"] for tile in row if (seat, tile["id"]) not in entered} for seat, row in enumerate(rows)}
    pending: dict[int, list[tuple[str, int]]] = {}
    lacks: dict[tuple[int, int], int] = {}

    def exclude(place: tuple[int, int], color: str, value: int) -> None:
        if colours.get(place) == color:
            lacks[place] = lacks.get(place, 0) | 1 << value

    for event in events:
        kind = event.get("type")
        if kind == "draw":
            pending[event["seat"]] = []
        elif kind == "guess":
            seat: int = event["seat"]
            named = (event["color"], value_code(event["value"]))
            for tile in present.get(seat, ()):
                exclude((seat, tile), *named)
            pending.setdefault(seat, []).append(named)
        elif kind == "insert":
            seat = event["seat"]
            for named in pending.pop(seat, []):
                exclude((seat, event["tile"]), *named)
            present.setdefault(seat, set()).add(event["tile"])
    return lacks


def position_from_view(
    view: dict[str, Any],
    memory: dict[int, int] | None = None,
    public: bool = False,
    recent: int | None = None,
    read_guessers: bool = False,
) -> Position:
    """The belief position of ``view["seat"]``.

    ``memory`` maps the seat's own tile ids to masks of values it remembers them to be (memory
    variant); ``public`` drops everything private (the seat's own values and drawn tile), giving
    what any opponent can infer about this seat's row; ``recent`` keeps only the last ``recent``
    missed guesses (a forgetful player); ``read_guessers`` adds :func:`guesser_lacks` for the
    opponents' rows.
    """
    seat = view["seat"]
    events = round_events(view)
    rows = view["rows"]
    guesses = [e for e in events if e.get("type") == "guess" and not e.get("hit")]
    if recent is not None:
        kept = {id(e) for e in guesses[len(guesses) - recent :]} if recent else set()
        events = [e for e in events if e.get("type") != "guess" or e.get("hit") or id(e) in kept]
    missed = missed_values(events, rows)
    if read_guessers:
        for place, bits in guesser_lacks(events, rows).items():
            if place[0] != seat:
                missed[place] = missed.get(place, 0) | bits
    tiles = []
    for s, row in enumerate(rows):
        built = []
        for tile in row:
            value = value_code(tile["value"]) if tile["revealed"] or not public else None
            allowed = ANY & ~missed.get((s, tile["id"]), 0)
            if value is None and s == seat and memory and tile["id"] in memory and not public:
                allowed &= memory[tile["id"]]
                if allowed and allowed & (allowed - 1) == 0:  # remembered exactly: a known tile
                    value = allowed.bit_length() - 1
            built.append(Tile(COLORS[tile["color"]], value, allowed))
        tiles.append(built)
    in_hand = [] if public else [view.get("drawn") or {}, *view.get("unplaced", [])]
    elsewhere = frozenset((COLORS[t["color"]], value_code(t["value"])) for t in in_hand if t.get("value") is not None)
    return Position(tiles, bool(view["options"].get("dashes")), elsewhere)


class OwnMemory:
    """What a seat remembers of its own tiles: values seen at the opening look and on drawing.

    Call :meth:`observe` with every view the seat receives; :attr:`masks` then maps own tile ids
    to remembered value masks for :func:`position_from_view`.
    """

    def __init__(self) -> None:
        self.round: Any = None
        self.masks: dict[int, int] = {}
        self.drawn: int | None = None

    def observe(self, view: dict[str, Any]) -> None:
        seat = view["seat"]
        if view.get("round") != self.round:
            self.round, self.masks, self.drawn = view.get("round"), {}, None
        for tile in view["rows"][seat]:
            value = value_code(tile["value"])
            if value is not None:
                self.masks[tile["id"]] = 1 << value
        for event in round_events(view):
            if event.get("type") == "insert" and event.get("seat") == seat and event["tile"] not in self.masks:
                if self.drawn is not None:
                    self.masks[event["tile"]] = 1 << self.drawn
                self.drawn = None
        drawn = view.get("drawn")
        if drawn and drawn.get("value") is not None and view.get("current") == seat:
            self.drawn = value_code(drawn["value"])

    def arranged(self, view: dict[str, Any], dashes: list[int]) -> None:
        """The seat's ``ready`` puts its opening dashes at ``dashes``; the row's tiles are then
        numbered by position, so the remembered masks follow them."""
        row = [self.masks.get(tile["id"], 0) for tile in view["rows"][view["seat"]]]
        for index in dashes:
            row.insert(index, 1 << DASH)
        self.masks = {position: mask for position, mask in enumerate(row) if mask}
