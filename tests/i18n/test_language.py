"""Choosing the language: from a request, from the terminal's environment; and a new language is a file."""

from __future__ import annotations

import json
import shutil

import pytest
from fastapi.testclient import TestClient

import codecrack
from codecrack import i18n
from codecrack.agents import make_agent
from codecrack.core.runner import run_game
from codecrack.review import review_record
from codecrack.web import language as web_language
from codecrack.web.app import create_app
from codecrack.web.config import WebConfig

from .catalogues import front_catalogue


@pytest.mark.parametrize(
    "header, expected",
    [
        ("th-TH,th;q=0.9,en;q=0.8", "th"),
        ("en-US,en;q=0.9,th;q=0.8", "en"),
        ("fr;q=0.9, th;q=0.95", "th"),
        ("th;q=0", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("x" * 5000, "en"),
    ],
)
def test_accept_language_picks_the_best_catalogue(header, expected):
    assert i18n.from_accept_language(header) == expected


@pytest.mark.parametrize(
    "environ, expected",
    [
        ({"LANG": "th_TH.UTF-8"}, "th"),
        ({"LANG": "th_TH.UTF-8", "LC_ALL": "C"}, "th"),
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "th_TH"}, "th"),
        ({"LANGUAGE": "fr:th", "LANG": "en_US.UTF-8"}, "th"),
        ({"LANG": "ko_KR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_terminal_language_follows_the_posix_variables(environ, expected):
    assert i18n.from_environment(environ) == expected


def test_thai_texts_are_translated_and_english_is_the_source():
    with i18n.language("th"):
        assert i18n._("How to draw") != "How to draw"
    assert i18n._("How to draw") == "How to draw"
    assert i18n.translate("a text no catalogue has", "th") == "a text no catalogue has"
    assert i18n.translate("", "th") == ""  # not the catalogue's header


def test_a_new_language_is_one_file_each_side(tmp_path, monkeypatch):
    """Drop a Korean .po and a ko.json in place: both sides offer Korean, nothing else changes."""
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE, locale)
    (locale / "ko" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "ko" / "LC_MESSAGES" / "codecrack.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "How to draw"\nmsgstr "뽑는 방법"\n',
        encoding="utf-8",
    )
    front = tmp_path / "i18n"
    shutil.copytree(web_language.CATALOGUES, front)
    (front / "ko.json").write_text(json.dumps({**front_catalogue("en"), "language.name": "한국어"}), encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE", locale)
    monkeypatch.setattr(web_language, "CATALOGUES", front)
    for cached in (i18n.languages, i18n.translations, web_language.front_end_languages):
        cached.cache_clear()
    try:
        assert "ko" in i18n.languages()
        assert i18n.from_accept_language("ko-KR") == "ko"
        assert i18n.translate("How to draw", "ko") == "뽑는 방법"
        assert {"code": "ko", "name": "한국어"} in web_language.front_end_languages()
    finally:
        monkeypatch.undo()
        for cached in (i18n.languages, i18n.translations, web_language.front_end_languages):
            cached.cache_clear()


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(WebConfig(db_url=f"sqlite:///{tmp_path}/web.db", ai_pace=0.0))) as test_client:
        yield test_client


def test_languages_are_listed_with_their_own_names(client):
    listed = client.get("/api/languages").json()
    assert {"code": "en", "name": "English"} in listed
    assert {"code": "th", "name": "ไทย"} in listed


def test_the_lobby_catalogue_answers_in_the_requested_language(client):
    english = {g["name"]: g for g in client.get("/api/games").json()}
    thai = {g["name"]: g for g in client.get("/api/games", headers={"accept-language": "th"}).json()}
    for name, game in english.items():
        for en_option, th_option in zip(game["options"], thai[name]["options"]):
            assert th_option["title"] == i18n.translate(en_option["title"], "th") != en_option["title"]
            assert th_option["help"] == i18n.translate(en_option["help"], "th") != en_option["help"]
            assert th_option["name"] == en_option["name"] and th_option["default"] == en_option["default"]
        assert [p["title"] for p in thai[name]["presets"]] != [p["title"] for p in game["presets"]]


def test_errors_answer_in_the_requested_language(client):
    english = client.get("/api/tables/NOPE").json()["detail"]
    thai = client.get("/api/tables/NOPE", headers={"accept-language": "th"}).json()["detail"]
    assert "NOPE" in english and "NOPE" in thai and thai != english


def test_a_websocket_speaks_the_language_of_its_url(client):
    made = client.post(
        "/api/tables", json={"game": "coda", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]}
    ).json()
    with client.websocket_connect(f"/ws/{made['code']}?lang=th") as spectator:
        spectator.send_json({"type": "hello", "token": None})
        spectator.send_json({"type": "action", "action": {"type": "draw", "color": "black"}})
        message = spectator.receive_json()
        while message["type"] != "error":
            message = spectator.receive_json()
    assert message["message"] == i18n.translate("spectators cannot act; take an open seat to play", "th")
    assert message["message"] != "spectators cannot act; take an open seat to play"


@pytest.mark.parametrize("game", ["coda", "coding", "alphacode"])
def test_a_review_is_written_in_the_current_language(game):
    played = codecrack.new_game(game, players=2, seed=4)
    run_game(played, {s: make_agent("medium", game, seed=s) for s in (0, 1)})
    english = review_record(played.record(), 0).to_json()["decisions"]
    with i18n.language("th"):
        thai = review_record(played.record(), 0).to_json()["decisions"]
    assert english and len(thai) == len(english)
    assert all(t["did"] != e["did"] and not t["did"].isascii() for t, e in zip(thai, english))
    assert [t["value"] for t in thai] == [e["value"] for e in english]
