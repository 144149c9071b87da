"""The daily Coda puzzle over HTTP (issue 28 §3): the same position for everyone; the seat's view
and nothing more before the answer; the exact odds of every guess after it; one answer a day."""

from __future__ import annotations

from datetime import timedelta

from codecrack.games.coda.daily import every_guess
from codecrack.games.coda.puzzles import guess_action, position, puzzle_of_day, shipped

from .test_daily import DAY, client, secret_of, today  # noqa: F401  (a guest's client; the server's date)
from .test_players import guest


def todays_puzzle(client) -> dict:
    return shipped()[puzzle_of_day(secret_of(client), DAY)]


def test_before_the_answer_only_the_seats_view_is_sent(client, today):  # noqa: F811
    """Nothing but the seat's own view (whose hidden tiles carry no value) goes out before the answer:
    not the odds, not the best guess, not which puzzle of the file it is."""
    shown = client.get("/api/daily/coda")
    assert shown.status_code == 200, shown.text
    puzzle = todays_puzzle(client)
    assert shown.json() == {
        "day": DAY.isoformat(),
        "grade": puzzle["grade"],
        "view": position(puzzle),
        "streak": {"current": 0, "best": 0},
        "answer": None,
    }
    view = shown.json()["view"]
    for seat, row in enumerate(view["rows"]):
        if seat != puzzle["seat"]:
            assert all(tile["value"] is None for tile in row if not tile["revealed"])
    client.cookies.clear()
    guest(client, "Bob")  # another player
    assert client.get("/api/daily/coda").text == shown.text  # the same puzzle for everyone


def test_an_answer_shows_the_exact_odds_of_every_guess_once(client, today):  # noqa: F811
    client.get("/api/daily/coda")
    puzzle = todays_puzzle(client)
    view = position(puzzle)
    chances = every_guess(view)
    worse = min(chances, key=lambda guess: (chances[guess], guess))  # a value the tile cannot hold
    assert chances[worse] == 0
    answered = client.post("/api/daily/coda", json={"guess": guess_action(view, worse)})
    assert answered.status_code == 200, answered.text
    answer = answered.json()["answer"]
    assert answer["best"]["guess"] == guess_action(view, tuple(puzzle["best"]))
    assert answer["chosen"] == {"guess": guess_action(view, worse), "p": round(chances[worse], 6)}
    assert not answer["solved"] and answer["score"] == round(100 * chances[worse] / puzzle["p_best"])
    assert [entry["p"] for entry in answer["odds"]] == sorted((round(p, 6) for p in chances.values()), reverse=True)
    again = client.post("/api/daily/coda", json={"guess": guess_action(view, tuple(puzzle["best"]))})
    assert again.status_code == 409
    assert client.get("/api/daily/coda").json()["answer"] == answer


def test_a_guess_the_seat_cannot_make_is_refused_and_nothing_is_kept(client, today):  # noqa: F811
    client.get("/api/daily/coda")
    view = position(todays_puzzle(client))
    own = {"type": "guess", "target": view["seat"], "index": 0, "color": "black", "value": 0}
    for guess in (own, {"type": "stop"}, {"type": "guess", "target": 1, "index": 99, "color": "black", "value": 1}):
        assert client.post("/api/daily/coda", json={"guess": guess}).status_code == 400
    assert client.get("/api/daily/coda").json()["answer"] is None


def test_the_best_guess_keeps_a_streak_and_the_share_text_spoils_nothing(client, today):  # noqa: F811
    for offset in (0, 1):
        today["day"] = DAY + timedelta(days=offset)
        client.get("/api/daily/coda")
        puzzle = shipped()[puzzle_of_day(secret_of(client), today["day"])]
        best = guess_action(position(puzzle), tuple(puzzle["best"]))
        answered = client.post("/api/daily/coda", json={"guess": best}).json()
    assert answered["streak"] == {"current": 2, "best": 2}
    share = answered["answer"]["share"]  # the day and the score: no tile, value or seat
    assert share == f"codecrack daily Coda puzzle {today['day'].isoformat()}: 100 %\n🟩"


def test_without_a_session_there_is_no_daily_puzzle(client, today):  # noqa: F811
    client.cookies.clear()
    assert client.get("/api/daily/coda").status_code == 401
