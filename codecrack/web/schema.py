"""Every HTTP body and websocket message, as pydantic models.

The OpenAPI schema (``/openapi.json``) is built from these, so it describes exactly what the server
accepts and answers. Requests forbid unknown fields and non-finite numbers (NaN, Infinity).
"""

from typing import Annotated, Any, Literal, Union

import orjson
from pydantic import (
    AllowInfNan,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    create_model,
)
from typing_extensions import TypeAliasType

from ..core.registry import game_class
from ..core.validation import UNKNOWN_MESSAGE
from ..i18n import _
from ..review.core import Decision
from .catalog import offered_options
from .chat import MAX_CHAT, PHRASES
from .turns import MAX_TURN_HOURS, MIN_TURN_HOURS

MAX_SEATS = 16  # more than any game takes; bounds the work a seat plan can cause
MAX_NAME = 40  # the name column's size; the server's ``max_name_length`` may be lower
MAX_AGENT = 40

FiniteFloat = Annotated[float, AllowInfNan(False)]
Json = TypeAliasType("Json", "dict[str, Json] | list[Json] | str | bool | int | FiniteFloat | None")
Name = Annotated[str, Field(max_length=MAX_NAME)]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]


class Strict(BaseModel):
    """Requests: no unknown fields, no NaN or Infinity, and no conversions (``"1"`` or ``true`` for
    a number, ``0`` or ``"yes"`` for a bool, ``10.0`` for an integer are refused)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)


# -- HTTP requests ---------------------------------------------------------------------------
class SeatPlan(Strict):
    kind: Literal["human", "ai"] = "human"
    agent: Annotated[str, Field(max_length=MAX_AGENT)] | None = None
    name: Name | None = None


class CreateTableBase(Strict):
    players: Annotated[int, Field(ge=1, le=MAX_SEATS)] | None = None
    seats: Annotated[list[SeatPlan], Field(min_length=1, max_length=MAX_SEATS)]
    takeover: Annotated[str, Field(max_length=MAX_AGENT)] | None = None
    sit: Seat | None = Field(None, description="claim this seat for the creator")
    open_to: Literal["link", "anyone"] = Field(
        "anyone", description="who may take the open seats: 'link', only those given its link (the answer's invite)"
    )
    name: Name = ""
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = Field(
        None, description="only on a server started with --allow-seed (local and test use)"
    )
    client_key: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="one per submit: a repeat with the same key gets the first answer, not a second table"
    )
    turn_hours: Annotated[int, Field(ge=MIN_TURN_HOURS, le=MAX_TURN_HOURS)] | None = Field(
        None, description="turn-based: the hours each move may take (then on_lapse says what happens)"
    )
    on_lapse: Literal["ai", "lose"] = Field(
        "ai", description="turn-based: a move's time ran out: 'ai', the takeover AI plays the seat; 'lose', it loses"
    )


def options_model(game: str) -> type[BaseModel]:
    """The options a web client may set for ``game``: the game's own fields minus server-only ones."""
    fields = game_class(game).Options.model_fields
    chosen: dict[str, Any] = {
        name: (field.annotation, field) for name, field in fields.items() if name in offered_options(game)
    }
    return create_model(f"{game.capitalize()}Options", __config__=Strict.model_config, **chosen)


def create_table_model(games: list[str]) -> Any:
    """``POST /api/tables``'s body: one variant per game, chosen by ``game``, with that game's options."""
    variants = []
    for game in games:
        options = options_model(game)
        fields: dict[str, Any] = {"game": (Literal[game], ...), "options": (options, Field(default_factory=options))}
        variant = create_model(f"Create{game.capitalize()}Table", __base__=CreateTableBase, **fields)
        variants.append(Annotated[variant, Tag(game)])
    valid = ", ".join(sorted(games))
    return Annotated[
        Union[tuple(variants)],  # noqa: UP007 - a union of variants made at run time
        Discriminator(
            _game_of,
            custom_error_type="unknown_game",
            custom_error_message=f"unknown game; valid games: {valid}",
            custom_error_context={"games": valid},
        ),
    ]


def _game_of(body: Any) -> Any:
    return body.get("game") if isinstance(body, dict) else getattr(body, "game", None)


Invitation = Annotated[str, Field(max_length=64)]


class JoinRequest(Strict):
    seat: Seat
    name: Name = ""
    invite: Invitation | None = Field(None, description="a friends' table's invitation, from its link")


class TutorialRequest(Strict):
    """``POST /api/tutorials/{game}``: the learner's name; the server picks everything else."""

    name: Name = ""


# -- HTTP answers ------------------------------------------------------------------------------
OptionValue = Union[bool, int, FiniteFloat, str, None]  # noqa: UP007 - pydantic reads it at run time


class OptionField(BaseModel):
    name: str
    title: str = Field(description="the option's label")
    kind: Literal["bool", "choice", "int", "number", "seat", "text"]
    default: OptionValue
    help: str = Field("", description="the option's one-line description")
    choices: list[OptionValue] | None = None
    min: int | FiniteFloat | None = None
    max: int | FiniteFloat | None = None
    unset: str | None = Field(None, description="a seat option: what no choice means, in plain words")


class PresetInfo(BaseModel):
    name: str
    title: str
    help: str
    options: dict[str, OptionValue]
    default: bool = Field(description="this preset is the game's defaults")


class GameInfo(BaseModel):
    name: str
    board: str | None = None  # the URL of the game's own board module (from its package); None: the generic one
    daily: str | None = None  # the URL of the game's daily puzzle page (/api/daily/GAME); None: no daily puzzle
    learn: int | None = None  # the game has a tutorial: where a newcomer meets it, the lowest first
    min_players: int
    max_players: int
    agents: list[str]
    facts: dict[str, Any] = {}  # a game's public data for how-to pages (Alphabet Code: its letters' segments)
    tiers: list[str]  # the AI tiers a lobby offers, weakest first (every name in ``agents`` stays accepted)
    options: list[OptionField]
    presets: list[PresetInfo]


class SeatInfo(BaseModel):
    kind: Literal["human", "ai"]
    agent: str | None
    name: str
    claimed: bool
    connected: bool
    bot: str | None = Field(description="the AI playing this seat now, if any")


class TurnInfo(BaseModel):
    """A turn-based table's time per move and the running deadline (``codecrack/web/turns.py``)."""

    hours: int
    on_lapse: str
    seats: list[int] = Field(description="the human seats whose move it is")
    deadline: str | None = Field(description="when their time runs out (ISO 8601, UTC)")


class TableInfo(BaseModel):
    """Public facts about a table; never any game state. ``step`` and ``hints`` are absent for a
    table summarised from its stored row."""

    code: str
    game: str
    players: int
    options: dict[str, OptionValue]
    seats: list[SeatInfo]
    takeover: str | None
    step: int | None = None
    over: bool
    result: dict[str, Json] | None
    rematch: str | None
    hints: bool | None = None
    rated: bool = Field(False, description="its game counts for ratings if every human seat is an account's")
    open_to: Literal["link", "anyone"] = Field("anyone", description="'link': its open seats only through its link")
    turns: TurnInfo | None = Field(None, description="set on a turn-based table")


class Lesson(BaseModel):
    say: str  # the coach's text: catalogue key ``learn.tutorial.<game>.<say>``
    action: dict[str, Json] | None  # the click the coach waits for; null: a reading step ("Next")
    at: int  # the table's step (actions taken) from which the lesson is due


class Lessons(BaseModel):
    game: str
    lessons: list[Lesson]


class Created(BaseModel):
    code: str
    seat: int | None
    token: str | None
    table: TableInfo
    invite: str | None = Field(None, description="a friends' table's invitation (its link: /t/CODE#invite=INVITE)")


class Invite(BaseModel):
    code: str
    invite: str | None = Field(description="the invitation of the table's link; null when its seats are open to anyone")


class Joined(BaseModel):
    code: str
    seat: int
    token: str


class Rematched(BaseModel):
    code: str
    table: TableInfo


class Replay(BaseModel):
    code: str
    seat: int | None
    steps: int = Field(description="frames in the whole replay: the actions played, plus one")
    start: int = Field(description="the first frame of this page")
    frames: list[dict[str, Json]] = Field(description="view(seat) after start, start + 1, ... actions")


class Review(BaseModel):
    """A seated player's post-game review (``codecrack.review``)."""

    code: str
    game: str
    seat: int
    players: int
    finished: bool
    tally: dict[str, int]
    decisions: list[Decision]


class Problem(BaseModel):
    detail: str


# -- websocket, client to server ---------------------------------------------------------------
class ClientHello(Strict):
    """The first message of every socket: the seat token, or ``null`` to watch."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=64)] | None = None


client_hello = TypeAdapter(ClientHello)


# A client's own label for one action, echoed in its answer (the sender's next state, or the error).
Ref = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[!-~]+$")]  # printable ASCII, no space


class ActionMessage(Strict):
    type: Literal["action"]
    action: dict[str, Json]
    ref: Ref | None = None


class HintRequest(Strict):
    type: Literal["hint"]


class Ping(Strict):
    type: Literal["ping"]


class ResyncRequest(Strict):
    """Asks for the whole view again (a delta did not fit the view the client holds)."""

    type: Literal["resync"]


Phrase = Literal[PHRASES]  # type: ignore[valid-type]


class ChatSay(Strict):
    """A chat line: one of the quick phrases (its key), or a text of the reader's own."""

    type: Literal["chat"]
    phrase: Phrase | None = None
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)] | None = None


class ChatMute(Strict):
    """Hide (or show again) what a seat says, on this connection; ``seat: null``: the spectators."""

    type: Literal["mute"]
    seat: Seat | None
    muted: bool = True


class ChatSwitch(Strict):
    """A seated player turns the table's chat off (or on again) for everyone."""

    type: Literal["chat_switch"]
    off: bool


ClientMessage = Annotated[
    Annotated[ActionMessage, Tag("action")]
    | Annotated[HintRequest, Tag("hint")]
    | Annotated[Ping, Tag("ping")]
    | Annotated[ResyncRequest, Tag("resync")]
    | Annotated[ChatSay, Tag("chat")]
    | Annotated[ChatMute, Tag("mute")]
    | Annotated[ChatSwitch, Tag("chat_switch")],
    Discriminator(
        lambda m: m.get("type") if isinstance(m, dict) else getattr(m, "type", None),
        custom_error_type="unknown_message",
        custom_error_message=UNKNOWN_MESSAGE,
    ),
]
client_message = TypeAdapter(ClientMessage)


class QuickAction(ActionMessage):
    action: dict[str, Any]


# The same messages, with the action's values unchecked (``Any``) and the type read by pydantic's
# own tag lookup: about a fifth of ClientMessage's cost. Alone it would take NaN and Infinity.
quick_client_message = TypeAdapter(
    Annotated[
        QuickAction | HintRequest | Ping | ResyncRequest | ChatSay | ChatMute | ChatSwitch,
        Field(discriminator="type"),
    ]
)


def read_client_message(
    text: str,
) -> ActionMessage | HintRequest | Ping | ResyncRequest | ChatSay | ChatMute | ChatSwitch:
    """``client_message.validate_json(text)``, faster for the messages of live play. Text that
    orjson reads is strict JSON whose numbers are all finite, so for it the action's values need
    no check of their own and the quick models accept exactly what ClientMessage does; anything
    else, or anything they refuse, goes to ClientMessage, which says why (tests/web/test_fuzz.py
    checks that both read every message alike). Reading the text once into Python values and
    checking those with ``validate_python`` reads some numbers differently, so the text is read
    twice: orjson reads integers past 64 bits as floats, and pydantic_core's ``from_json`` reads
    ``1e400`` as infinity even with ``allow_inf_nan=False``."""
    try:
        orjson.loads(text)
        return quick_client_message.validate_json(text)
    except (orjson.JSONDecodeError, ValidationError):
        return client_message.validate_json(text)


# -- websocket, server to client ---------------------------------------------------------------
class ServerHello(BaseModel):
    type: Literal["hello"]
    seat: int | None
    table: TableInfo


class RunningClockInfo(BaseModel):
    seat: int
    kind: Literal["turn", "answer"]
    remaining: float
    countdown: float


class State(BaseModel):
    """``view`` is exactly the engine's ``view(seat)`` after ``step`` actions."""

    type: Literal["state"]
    step: int
    view: dict[str, Json]
    clock: RunningClockInfo | None
    ref: Ref | None = None  # only to the sender of the action it follows, and only if it sent one


Change = Union[  # noqa: UP007 - pydantic reads it at run time
    tuple[Literal["set"], list[str | int], Json],
    tuple[Literal["del"], list[str | int]],
    tuple[Literal["add"], list[str | int], list[Json]],
]


class Delta(BaseModel):
    """The changes (``codecrack/protocol/deltas.py``) that turn the view sent at step ``base`` into the
    view after ``step`` actions."""

    type: Literal["delta"]
    base: int
    step: int
    changes: list[Change]
    clock: RunningClockInfo | None
    ref: Ref | None = None  # as in State


class TableNotice(BaseModel):
    type: Literal["table"]
    table: TableInfo


class ErrorMessage(BaseModel):
    type: Literal["error"]
    message: str
    ref: Ref | None = None  # the refused action's, if it carried one


class HintAnswer(BaseModel):
    type: Literal["hint"]
    step: int
    hint: dict[str, Json] | None


class RematchNotice(BaseModel):
    type: Literal["rematch"]
    code: str


class InviteNotice(BaseModel):
    """The table's invitation was renewed (sent to seated players only): the invite panel's new link."""

    type: Literal["invite"]
    invite: str


class RatingChange(BaseModel):
    seat: int
    before: int = Field(description="the rating shown before the game (60 x OpenSkill mu)")
    after: int
    provisional: bool = Field(description="fewer than 10 rated games: shown with '?'")


class RatedNotice(BaseModel):
    type: Literal["rated"]
    changes: list[RatingChange]


class Pong(BaseModel):
    type: Literal["pong"]


class ChatLine(BaseModel):
    id: int
    seat: int | None = Field(description="null: a spectator")
    name: str
    kind: Literal["phrase", "text", "off", "on"]
    body: str = Field(description="the phrase's key, the text, or empty for a switch")


class ChatNotice(BaseModel):
    """Chat lines the reader may read, and whether the table's chat is off now."""

    type: Literal["chat"]
    lines: list[ChatLine]
    off: bool


ServerMessage = Annotated[
    ServerHello
    | State
    | Delta
    | TableNotice
    | ErrorMessage
    | HintAnswer
    | RematchNotice
    | InviteNotice
    | RatedNotice
    | Pong
    | ChatNotice,
    Field(discriminator="type"),
]
server_message = TypeAdapter(ServerMessage)


def no_table(code: str) -> str:
    """The 404 answer for a table code that names no table (in the request's language)."""
    return _("no table '{code}'").format(code=code)


# the errors a route may answer, for the OpenAPI schema
ERRORS: dict[int | str, dict[str, Any]] = {400: {"model": Problem}, 404: {"model": Problem}, 413: {"model": Problem}}
