"""Bots that crash, stall, cheat, flood or fork lose their game with a clear report, and the
arena carries on; every bot process is ended and reaped."""

import sys
import time
from pathlib import Path

import pytest

from codecrack.arena import ArenaConfig, play_one, play_series
from codecrack.core.registry import new_game
from codecrack.protocol import BotFault, Limits, ProcessAgent
from codecrack.protocol.messages import Act
from codecrack.protocol.process import BotProcess

HOSTILE = Path(__file__).with_name("hostile_bot.py")


def hostile(mode: str, *extra: str) -> str:
    return f"cmd:{sys.executable} {HOSTILE} {mode} {' '.join(extra)}".strip()


def config(agent: str, games: int = 1, players: int = 2) -> ArenaConfig:
    return ArenaConfig("coda", players, (agent, "random"), games, seed=5, move_time=1.0)


@pytest.mark.parametrize(
    "mode, kind, detail",
    [
        ("exit_at_start", "crash", "exited with code 3"),
        ("raise", "crash", "closed its output"),
        ("sleep", "timeout", "no answer within 1 s"),
        ("illegal", "illegal", "cheat"),
        ("garbage", "protocol", "invalid message"),
        ("flood", "protocol", "longer than 65536 bytes"),
    ],
)
def test_a_faulty_bot_loses_the_game_with_a_clear_report(mode, kind, detail):
    game = play_one(config(hostile(mode)), 0)
    fault = game["fault"]
    assert (fault["seat"], fault["kind"]) == (0, kind)
    assert detail in fault["detail"]
    assert game["wins"] == {"random": 1.0} and game["places"] == [2, 1]


def test_the_report_keeps_the_tail_of_the_bots_stderr():
    assert "cannot load my weights" in play_one(config(hostile("exit_at_start")), 0)["fault"]["stderr"]
    assert "RuntimeError: my bug" in play_one(config(hostile("raise")), 0)["fault"]["stderr"]


def test_a_bot_speaking_out_of_turn_is_a_protocol_fault():
    fault = play_one(config(hostile("chatty")), 0)["fault"]
    assert fault["kind"] == "protocol"
    assert "nobody asked for" in fault["detail"] or "answered action 1 to act 2" in fault["detail"]


def test_a_bot_that_spams_stderr_still_plays():
    assert play_one(config(hostile("stderr_spam")), 0)["fault"] is None


def test_the_series_goes_on_after_faults_and_counts_them():
    summary = play_series(config(hostile("illegal"), games=4)).summary()
    assert summary["games"] == 4 and summary["fault_count"] == 4
    bot, random_row = summary["agents"]
    assert (bot["faults"], bot["wins"], random_row["wins"]) == (4, 0, 4)


def test_children_of_a_bot_are_killed_with_it(tmp_path):
    pid_file = tmp_path / "child.pid"
    fault = play_one(config(hostile("forker", str(pid_file))), 0)["fault"]
    assert fault["kind"] == "timeout"
    assert _dies(int(pid_file.read_text()))


def test_a_bot_that_stops_reading_cannot_block_the_host():
    bot = BotProcess([sys.executable, str(HOSTILE), "deaf"], Limits(move_s=1.0))
    try:
        bot.exchange(Act(id=1, view={"legal_actions": [], "padding": "x" * 4_000_000}, time_limit_ms=1000), 1.0)
    except BotFault as fault:
        assert fault.kind == "crash" or fault.kind == "timeout"
    else:
        pytest.fail("the deaf bot answered")
    finally:
        bot.close()
    assert bot.process.returncode is not None


def test_a_missing_program_is_a_crash_of_that_seat():
    game = new_game("coda", players=2, seed=1)
    with pytest.raises(BotFault) as caught:
        ProcessAgent("cmd:/nonexistent/bot", game, seat=1)
    assert (caught.value.kind, caught.value.seat) == ("crash", 1)
    assert "cannot start" in caught.value.detail


def _dies(pid: int, within_s: float = 10.0) -> bool:
    """Whether ``pid`` ends (a zombie awaiting its reaper counts as ended): SIGKILL is not instant."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            if "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text():
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_the_arena_command_reports_each_fault():
    from typer.testing import CliRunner

    from codecrack.cli import app

    result = CliRunner().invoke(
        app,
        ["arena", "--game", "coda", "--agents", f"{hostile('illegal')},random", "--games", "2", "--time-limit", "2"],
    )
    assert result.exit_code == 0, result.output
    assert "lost by illegal" in result.output and "cheat" in result.output
