"""The daily Coding puzzle over HTTP (issue 28 §3): a seat about to decode, the same for everyone;
the seat's view (decodes only) and its grade before the answer, nothing of the odds; the exact
chance of the written code against the best code's after it; one answer a day."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

from fastapi.testclient import TestClient

from codecrack.games.coding import daily
from codecrack.games.coding.daily import DAILY, decode_action, find_puzzle, grade, seat_chances
from codecrack.web.app import create_app

from .conftest import fast_config
from .test_daily import DAY, client, secret_of, today  # noqa: F401  (a guest's client; the server's date)
from .test_players import guest


def todays_puzzle(client, day=DAY) -> daily.Puzzle:
    return find_puzzle(DAILY.of_day(secret_of(client), day))


def test_before_the_answer_only_the_seats_view_and_grade_are_sent(client, today):  # noqa: F811
    shown = client.get("/api/daily/coding")
    assert shown.status_code == 200, shown.text
    puzzle = todays_puzzle(client)
    assert shown.json() == {
        "day": DAY.isoformat(),
        "grade": grade(puzzle),
        "view": puzzle.view,
        "streak": {"current": 0, "best": 0},
        "answer": None,
    }
    view = shown.json()["view"]
    assert view["seat"] == puzzle.seat and {a["type"] for a in view["legal_actions"]} == {"decode"}
    client.cookies.clear()
    guest(client, "Bob")  # another player, another language: the same puzzle
    assert client.get("/api/daily/coding").json() == shown.json()


def test_what_the_seat_cannot_know_changes_nothing_before_the_answer(tmp_path, monkeypatch, today):  # noqa: F811
    """Two servers whose puzzles share the seat's view but not the game behind it (its seed, from
    which the other seats' codes follow, and how far into it the position is): their answers are
    byte-identical."""
    first = find_puzzle(1)
    other = replace(first, seed=first.seed + 1, step=first.step + 7)
    seen = []
    for index, puzzle in enumerate((first, other)):
        monkeypatch.setattr(daily, "find_puzzle", lambda number, puzzle=puzzle: puzzle)
        folder = tmp_path / str(index)
        folder.mkdir()
        with TestClient(create_app(fast_config(folder))) as client:  # noqa: F811
            guest(client)
            seen.append(json.dumps(client.get("/api/daily/coding").json(), sort_keys=True))
    assert seen[0] == seen[1]


def test_an_answer_is_scored_by_its_exact_chance_against_the_best(client, today):  # noqa: F811
    client.get("/api/daily/coding")
    puzzle = todays_puzzle(client)
    chances = seat_chances(puzzle.view)  # the seat's exact belief, from its own view
    target = puzzle.best[0]
    worse = (target, int(chances[target].argsort()[-2]))  # the second likeliest code of the best code's owner
    answered = client.post("/api/daily/coding", json={"guess": decode_action(worse)})
    assert answered.status_code == 200, answered.text
    answer = answered.json()["answer"]
    p, best = float(chances[worse[0]][worse[1]]), puzzle.best_chance
    assert answer["chosen"] == {"guess": decode_action(worse), "p": round(p, 6)}
    assert answer["best"] == {"guess": decode_action(puzzle.best), "p": round(best, 6)}
    assert not answer["solved"] and answer["score"] == round(100 * p / best) < 100
    assert [entry["p"] for entry in answer["odds"]] == sorted((entry["p"] for entry in answer["odds"]), reverse=True)
    assert answer["possible"] == sum(int((probs > 0).sum()) for probs in chances.values())
    again = client.post("/api/daily/coding", json={"guess": decode_action(puzzle.best)})
    assert again.status_code == 409
    assert client.get("/api/daily/coding").json()["answer"] == answer


def test_a_code_the_seat_cannot_write_is_refused_and_nothing_is_kept(client, today):  # noqa: F811
    client.get("/api/daily/coding")
    seat = todays_puzzle(client).seat
    for guess in (
        {"type": "decode", "target": seat, "code": "A01"},  # its own code
        {"type": "decode", "target": (seat + 1) % 3, "code": "A11"},  # not a code
        {"type": "decode", "target": 9, "code": "A01"},
        {"type": "take", "data": "letter"},
        {"type": "decode", "target": (seat + 1) % 3, "code": "A01", "extra": 1},
    ):
        assert client.post("/api/daily/coding", json={"guess": guess}).status_code == 400, guess
    assert client.get("/api/daily/coding").json()["answer"] is None


def test_the_best_code_keeps_a_streak_and_the_share_text_spoils_nothing(client, today):  # noqa: F811
    for offset in (0, 1):
        today["day"] = DAY + timedelta(days=offset)
        client.get("/api/daily/coding")
        best = decode_action(todays_puzzle(client, today["day"]).best)
        answered = client.post("/api/daily/coding", json={"guess": best}).json()
    assert answered["answer"]["solved"] and answered["answer"]["score"] == 100
    assert answered["streak"] == {"current": 2, "best": 2}
    share = answered["answer"]["share"]  # the day and the score: no code, no seat
    assert share == f"codecrack daily Coding puzzle {today['day'].isoformat()}: 100 %\n🟩"
    thai = client.get("/api/daily/coding", headers={"accept-language": "th"}).json()["answer"]["share"]
    assert thai.startswith("codecrack ปริศนา The Coding ประจำวัน")


def test_a_solo_route_of_a_decision_daily_and_a_game_without_a_daily_are_not_found(client, today):  # noqa: F811
    assert client.post("/api/daily/coding", json={"practice": True}).status_code == 404
    assert client.get("/api/daily/coding/some-id").status_code == 404
    assert client.get("/api/daily/alphacode").status_code == 404
    assert client.get("/api/daily/nope").status_code == 404
    client.cookies.clear()
    assert client.get("/api/daily/coding").status_code == 401
