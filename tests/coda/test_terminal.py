"""Terminal Coda: rendering, short commands, the public log, and whole games with a scripted human."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

import codecrack
from codecrack.agents import RandomAgent
from codecrack.cli import app
from codecrack.games.coda import screen
from codecrack.games.coda.tiles import label
from codecrack.terminal import play as play_module
from codecrack.terminal.human import TerminalHuman
from codecrack.terminal.play import play

from .helpers import guess, place, rigged
from .test_properties import random_action


def command(action: dict) -> str:
    """What a person types for ``action``."""
    kind = action["type"]
    if kind == "guess":
        return f"guess {action['target'] + 1} {action['index']} {label(action['color'], action['value']).lower()}"
    if kind == "draw":
        return " ".join(["draw", action.get("color", "")]).strip()
    if kind == "opening":
        return f"opening {action['black']}"
    if kind in ("place", "reveal"):
        return f"{kind} {action['index']}"
    return " ".join([kind, *map(str, action.get("dashes", []))])


def text_of(renderable) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


@pytest.mark.parametrize(
    "options",
    [{}, {"draw": "deck", "dashes": True, "memory": True}, {"dashes": True, "empty_deck": "eliminate", "rounds": 3}],
)
def test_every_legal_action_can_be_typed(options):
    game = codecrack.new_game("coda", players=3, seed=21, **options)
    rng = random.Random(4)
    while not game.over:
        seat = min(game.to_move)
        view = game.view(seat)
        for action in view["legal_actions"][:60]:
            assert screen.parse(command(action), view) == action
        game.apply(*random_action(game, rng))


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "type a command"),
        ("jump", "unknown command 'jump'; commands: draw"),
        ("draw", "say which colour"),
        ("draw purple", "draw black or draw white"),
        ("guess 1", "guess SEAT INDEX TILE"),
        ("guess 1 0 b1", "your own tiles"),
        ("guess 5 0 b1", "seat 5 is not an opponent"),
        ("guess 2 7 b1", "seat 2 has tiles 0 to 2"),
        ("guess 2 0 b1", "already face up"),
        ("guess 2 1 q1", "is not a tile"),
        ("guess 2 1 b13", "value 0-11"),
        ("guess 2 1 b-", "no dashes in this game"),
        ("stop now", "stop takes nothing"),
        ("place x", "place needs one number"),
        ("place 9", r"place takes 0 \(far left\) to 2"),
        ("ready 1", "ready takes nothing after it"),
        ("reveal 1", "reveal one of your face-down tiles: 0"),
        ("opening", "how many black tiles"),
    ],
)
def test_bad_commands_get_helpful_messages(text, message):
    game = rigged(["b1 W5", "B2 w6 b9"], "b3")
    with pytest.raises(codecrack.IllegalAction, match=message):
        screen.parse(text, game.view(0))


def test_deck_mode_draw_takes_no_colour():
    view = rigged(["b1", "b2"], "b3", draw="deck").view(0)
    assert screen.parse("draw", view) == {"type": "draw"}
    with pytest.raises(codecrack.IllegalAction, match="deck mode"):
        screen.parse("draw black", view)


def test_render_shows_rows_the_drawn_tile_the_history_and_a_prompt():
    game = rigged(["b1 W5", "b2 w6"], "b3 w7", rounds=3)
    game.apply(0, {"type": "draw", "color": "black"})
    guess(game, 1, 0, "b2")
    text = text_of(screen.render(game.view(0)))
    assert "(b1) [W5]" in text and "[B2] [W?]" in text
    assert "You drew [B3]." in text and "round 1/3" in text and "scores: seat 1: 1" in text
    assert "seat 1 guesses seat 2's tile 0 is B2: HIT" in text and "or stop" in text
    other = text_of(screen.render(game.view(1)))
    assert "[B?] [W5]" in other and "Seat 1 drew [B?]." in other and "Guess a face-down" not in other


def test_without_notes_the_screen_shows_only_what_happened_since_your_last_move():
    game = rigged(["b1 w5", "b2 w6"], "b3 w7 b8", notes=False)
    game.apply(0, {"type": "draw", "color": "black"})
    guess(game, 1, 0, "b4")
    place(game)
    game.apply(1, {"type": "draw", "color": "white"})
    text = text_of(screen.render(game.view(1)))
    assert "since your last move" in text and "seat 1 draws" not in text
    text = text_of(screen.render(game.view(0)))
    assert "seat 1 draws" not in text and "seat 2 draws a white tile" in text


def test_the_place_prompt_says_which_side_up_the_drawn_tile_goes_and_where():
    game = rigged(["b1 w5", "b2 w6"], dashes=True, drawn="w-")
    guess(game, 1, 0, "b4")
    text = text_of(screen.render(game.view(0)))
    assert "Place your drawn tile (face up): place INDEX, one of 0, 1, 2" in text
    assert "Seat 1 drew [W-], now face up." in text_of(screen.render(game.view(1)))
    game = rigged(["b1 w- w5", "b2 w6"], dashes=True, drawn="b3")
    guess(game, 1, 0, "b2")
    game.apply(0, {"type": "stop"})
    view = game.view(0)
    assert "Place your drawn tile (face down): place INDEX, one of 1, 2" in text_of(screen.render(view))
    assert screen.parse("place 2", view) == {"type": "place", "index": 2}
    with pytest.raises(codecrack.IllegalAction, match="place takes 1, 2"):
        screen.parse("place 0", view)


def test_the_arrange_prompt_asks_for_the_opening_dash_places():
    game = codecrack.new_game("coda", players=2, seed=6, first=0, dashes=True)
    for seat in (0, 1):
        game.apply(seat, {"type": "opening", "black": 2})
    view = game.view(0)
    assert "Place your dash and say ready: ready INDEX" in text_of(screen.render(view))
    assert screen.parse("ready 0", view) == {"type": "ready", "dashes": [0]}
    with pytest.raises(codecrack.IllegalAction, match="ready needs 1 index"):
        screen.parse("ready", view)
    assert "Type ready when your row is arranged." in text_of(screen.render(game.view(1)))


def test_memory_variant_screen_hides_your_own_values():
    game = rigged(["b1 W5", "b2 w6"], "b3", memory=True)
    assert "[B?] [W5]" in text_of(screen.render(game.view(0)))


def test_the_log_line_is_public():
    game = rigged(["b1 w5", "b2 w6"], "b3")
    events = game.apply(0, {"type": "draw", "color": "black"})
    assert screen.describe(0, {"type": "draw", "color": "black"}, events) == "seat 1 draws a black tile"
    events = guess(game, 1, 1, "w6")
    assert screen.describe(0, {}, events) == "seat 1 guesses seat 2's tile 1 is W6: HIT"


def scripted_human(game, seat: int, console: Console, junk_every: int = 4) -> TerminalHuman:
    """A human who types a random legal command, with a mistake now and then."""
    rng = random.Random(seat)
    mistakes = itertools.cycle(["hello", "guess 9 9 b1", "draw purple", "?", "place 99"])
    count = itertools.count()

    def read(prompt: str) -> str:
        if next(count) % junk_every == 0:
            return next(mistakes)
        return command(rng.choice(game.legal_actions(seat)))

    return TerminalHuman("coda", console, read)


@pytest.mark.parametrize("options", [{}, {"dashes": True, "memory": True, "notes": False, "rounds": 3}])
def test_a_newcomer_plays_a_whole_game_by_typing(options):
    console = Console(file=io.StringIO(), width=100)
    game = codecrack.new_game("coda", players=3, seed=7, **options)
    agents = {0: scripted_human(game, 0, console), 1: RandomAgent(seed=1), 2: RandomAgent(seed=2)}
    screen.run(game, agents, console)
    output = console.file.getvalue()
    assert game.over and "unknown command 'hello'" in output and "Legal actions" in output
    assert "How to play" in output
    assert "seat 1 (you)" in output


def test_play_with_a_human_seat_the_grouped_menu_and_the_summary(monkeypatch):
    console = Console(file=io.StringIO(), width=100)
    games = []
    monkeypatch.setattr(play_module, "new_game", lambda *a, **k: games.append(codecrack.new_game(*a, **k)) or games[0])
    typed = itertools.count()
    rng = random.Random(3)

    def read(prompt: str) -> str:  # every third line a ?, else a random legal command
        return "?" if next(typed) % 3 == 0 else command(rng.choice(games[0].legal_actions(0)))

    record = play("coda", ["human", "random", "random"], seed=7, options={}, console=console, read=read)
    output = console.file.getvalue()
    assert codecrack.replay(record).over and "Game over" in output and "Winner: seat" in output
    assert "Legal actions (type one of these commands)" in output and "guess 2 " in output
    assert '{"type"' not in output and "'winners'" not in output  # no JSON or Python dumps
    assert "seat 1's tiles: [" in output  # every row in full at the end
    decisive = output.split("The decisive moves:")[1]  # each player's exposing hit, as the log tells it
    assert decisive.count(" guesses seat ") + decisive.count(" turns up ") == 2


def test_cli_plays_a_bots_only_game():
    result = CliRunner().invoke(
        app, ["play", "coda", "--seats", "random,random", "--seed", "7", "--option", "dashes=true"]
    )
    assert result.exit_code == 0 and "Game over" in result.output and "seat 1 draws" in result.output
