"""Quick match across instances (issue 28 §2): players calling two instances on one PostgreSQL
database at once are each seated once, in the queue of their preset, and no seat is given twice."""

from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from codecrack.web.app import create_app

from ..web.conftest import fast_config
from ..web.test_quick_match import Guest, check_seated_once


def test_players_on_two_instances_are_matched_together_once_per_preset(tmp_path, postgres_url, redis_url):
    a, b = (
        TestClient(
            create_app(
                fast_config(
                    tmp_path,
                    db_url=postgres_url,
                    redis_url=redis_url,
                    instance_name=name,
                    match_calls_per_minute=10_000,
                )
            )
        )
        for name in ("a", "b")
    )
    with a, b:
        guests = [Guest(a if n % 2 else b, f"P{n}") for n in range(12)]
        presets = ["classic"] * 6 + ["advanced"] * 6  # two queues, each called on both instances
        bodies = [{"game": "coda", "players": 2, "preset": preset} for preset in presets]
        with ThreadPoolExecutor(max_workers=len(guests)) as pool:
            answers = list(pool.map(Guest.until_seated, guests, bodies))
        check_seated_once(a, guests, answers)
        for answer, preset in zip(answers, presets, strict=True):  # each instance finds the table, whichever made it
            for client in (a, b):
                table = client.get(f"/api/tables/{answer['code']}").json()
                assert table["seats"][answer["seat"]]["claimed"] and table["options"]["dashes"] is (
                    preset == "advanced"
                )
