"""Daily puzzles over HTTP: each game's own daily challenge (``games/GAME/daily.py``, see
:mod:`codecrack.core.daily`), one a UTC day, the same for everyone, numbered from a secret the
server draws once and keeps in its database (``server_secrets``), so nobody can compute tomorrow's.

A solo daily (several actions, e.g. the daily Alphabet Code):

- ``POST /api/daily/GAME`` ``{"practice": false}``: today's attempt of this player (made on
  the first call, the same one afterwards: one scored attempt a day); ``{"practice": true}``: a
  new attempt at a random puzzle, unscored, as many as wanted.
- ``GET /api/daily/GAME/{id}``: an attempt; ``POST /api/daily/GAME/{id}`` ``{"action": ...}``
  plays an action of the game's daily (or ``{"type": "give_up"}``).

Until an attempt is over it carries nothing about its puzzle (nor which one it is); then it carries
the game's result (the answer, the par, a text to share), the day's distribution of scores and the streak.

A decision daily (one answer, e.g. the daily Coda and Coding puzzles):

- ``GET /api/daily/GAME``: today's puzzle: its grade, the seat's view and the player's streak
  (days in a row with the best answer);
- ``POST /api/daily/GAME`` ``{"guess": action}`` answers it, once a day. The exact odds, which
  answer is best, and a text to share come only with the answer.

Players are the session's (a guest is enough; 401 without a session). An attempt is its player's
alone (another player gets 404).
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, date, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel, StrictBool
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..core.daily import DecisionDaily, SoloDaily, daily_of
from ..core.errors import IllegalAction, explain
from ..i18n import _
from .players.identity import Player, required_player
from .schema import ERRORS, Problem, Strict
from .store import attempts_key, daily_pars, kept_secret, now, puzzle_attempts

SECRET_NAME = "daily"
NEEDS_PLAYER = {**ERRORS, 401: {"model": Problem}, 404: ERRORS[400]}


def utc_today() -> date:
    return datetime.now(UTC).date()


class StartRequest(Strict):
    practice: StrictBool = False


class GuessRequest(Strict):
    guess: dict[str, Any]  # the answer, as an action of the game


class PlayRequest(Strict):
    action: dict[str, Any]


class Streak(BaseModel):
    current: int
    best: int


class Attempt(BaseModel):
    id: str
    game: str
    day: str | None
    practice: bool
    view: dict[str, Any]
    score: int
    over: bool
    solved: bool
    streak: Streak
    result: dict[str, Any] | None  # the game's result and the day's "distribution", once over
    event: dict[str, Any] | None = None  # what the action just played did


class Puzzle(BaseModel):
    day: str
    grade: str
    view: dict[str, Any]  # the seat's own view, nothing more
    streak: Streak  # days in a row with the best answer
    answer: dict[str, Any] | None  # only once the player answered


def player_key(player: Player) -> str:
    return attempts_key(player.id)


def solo_of(game: str) -> SoloDaily:
    daily = daily_of(game)
    if not isinstance(daily, SoloDaily):
        raise HTTPException(status_code=404, detail=_("no such daily puzzle"))
    return daily


def daily_router(hub: Any) -> APIRouter:
    router = APIRouter()
    engine = hub.store.engine
    kept: dict[str, bytes] = {}

    def secret() -> bytes:
        """The server's daily secret, drawn by the first instance that needs it."""
        if SECRET_NAME not in kept:
            kept[SECRET_NAME] = bytes.fromhex(kept_secret(engine, SECRET_NAME, lambda: secrets.token_hex(32)))
        return kept[SECRET_NAME]

    def find(game: str, player: str, day: date) -> dict[str, Any] | None:
        query = select(puzzle_attempts).where(
            puzzle_attempts.c.game == game, puzzle_attempts.c.day == day, puzzle_attempts.c.player == player
        )
        with engine.begin() as db:
            found = db.execute(query).mappings().first()
        return dict(found) if found else None

    def new_row(game: str, player: str, day: date | None, number: int) -> dict[str, Any]:
        return {
            "id": secrets.token_urlsafe(18),
            "game": game,
            "day": day,
            "player": player,
            "puzzle": number,
            "moves": [],
            "step": 0,
            "finished": False,
            "solved": False,
            "score": 0,
            "started_at": now(),
        }

    def start(game: str, player: str, practice: bool) -> dict[str, Any]:
        daily = solo_of(game)
        day = None if practice else utc_today()
        if day is not None:
            found = find(game, player, day)
            if found is not None:
                return found
        row = new_row(game, player, day, daily.practice() if day is None else daily.of_day(secret(), day))
        try:
            with engine.begin() as db:
                db.execute(insert(puzzle_attempts).values(**row))
        except IntegrityError:  # the same player started today's in another request meanwhile
            if day is None:  # a practice attempt is unique by its random id only
                raise
            return find(game, player, day) or row
        return row

    def attempt(game: str, player: str, attempt_id: str) -> dict[str, Any]:
        query = select(puzzle_attempts).where(
            puzzle_attempts.c.id == attempt_id, puzzle_attempts.c.player == player, puzzle_attempts.c.game == game
        )
        with engine.begin() as db:
            found = db.execute(query).mappings().first()
        if found is None:
            raise HTTPException(status_code=404, detail=_("no such attempt"))
        return dict(found)

    def play(game: str, player: str, attempt_id: str, action: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        row = attempt(game, player, attempt_id)
        solo = solo_of(game).attempt(row["puzzle"], row["moves"])
        try:
            event = solo.play(action)
        except IllegalAction as error:
            raise HTTPException(status_code=400, detail=explain(error)) from None
        values = {
            "moves": row["moves"] + [action],
            "step": row["step"] + 1,
            "finished": solo.over,
            "solved": solo.solved,
            "score": solo.score,
        }
        change = (
            update(puzzle_attempts)
            .where(puzzle_attempts.c.id == attempt_id, puzzle_attempts.c.step == row["step"])
            .values(**values)
        )
        with engine.begin() as db:
            if not db.execute(change).rowcount:
                raise HTTPException(status_code=409, detail=_("this attempt was played meanwhile; reload it"))
        return {**row, **values}, event

    def par(daily: SoloDaily, row: dict[str, Any]) -> int:
        """The par of this attempt's puzzle (a day's is worked out once and kept)."""
        if row["day"] is None:
            return daily.par(row["puzzle"])
        key = (daily_pars.c.game == row["game"]) & (daily_pars.c.day == row["day"])
        with engine.begin() as db:
            turns = db.execute(select(daily_pars.c.turns).where(key)).scalar()
        if turns is None:
            turns = daily.par(row["puzzle"])
            try:
                with engine.begin() as db:
                    db.execute(insert(daily_pars).values(game=row["game"], day=row["day"], turns=turns))
            except IntegrityError:  # worked out by another request meanwhile: the same number
                pass
        return int(turns)

    def distribution(game: str, day: date) -> dict[str, Any]:
        query = (
            select(puzzle_attempts.c.solved, puzzle_attempts.c.score, func.count())
            .where(puzzle_attempts.c.game == game, puzzle_attempts.c.day == day, puzzle_attempts.c.finished)
            .group_by(puzzle_attempts.c.solved, puzzle_attempts.c.score)
        )
        scores: dict[str, int] = {}
        unsolved = 0
        with engine.begin() as db:
            for solved, score, count in db.execute(query):
                if solved:
                    scores[str(score)] = count
                else:
                    unsolved += count
        return {"scores": dict(sorted(scores.items(), key=lambda item: int(item[0]))), "unsolved": unsolved}

    def streaks(game: str, player: str, today: date) -> dict[str, int]:
        """Days in a row with the day's puzzle of ``game`` solved: the current run (up to today or
        yesterday) and the best."""
        query = select(puzzle_attempts.c.day).where(
            puzzle_attempts.c.game == game,
            puzzle_attempts.c.player == player,
            puzzle_attempts.c.day.is_not(None),
            puzzle_attempts.c.solved,
        )
        with engine.begin() as db:
            days = sorted({day for (day,) in db.execute(query)})
        best, run, previous = 0, 0, None
        for day in days:
            run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
            best, previous = max(best, run), day
        current = run if previous is not None and today - previous <= timedelta(days=1) else 0
        return {"current": current, "best": best}

    def shown(row: dict[str, Any], player: str) -> dict[str, Any]:
        """An attempt as its player sees it: nothing about its puzzle before it is over."""
        game, day = row["game"], row["day"]
        daily = solo_of(game)
        solo = daily.attempt(row["puzzle"], row["moves"])
        answer: dict[str, Any] = {
            "id": row["id"],
            "game": game,
            "day": None if day is None else day.isoformat(),
            "practice": day is None,
            "view": solo.view(),
            "score": solo.score,
            "over": solo.over,
            "solved": solo.solved,
            "result": None,
            "streak": streaks(game, player, utc_today()),
        }
        if solo.over:
            scores = None if day is None else distribution(game, day)
            answer["result"] = {**daily.result(solo, day, par(daily, row)), "distribution": scores}
        return answer

    def decision_of(game: str) -> DecisionDaily:
        daily = daily_of(game)
        if not isinstance(daily, DecisionDaily):
            raise HTTPException(status_code=404, detail=_("no such daily puzzle"))
        return daily

    def puzzle_shown(game: str, player: str) -> dict[str, Any]:
        """Today's puzzle of ``game`` as its player sees it: the seat's view; the odds only once answered."""
        daily, day = decision_of(game), utc_today()
        number = daily.of_day(secret(), day)
        row = find(game, player, day)
        answer = None if row is None else daily.answer(number, row["moves"][0], day, row["score"], row["solved"])
        return {"day": day.isoformat(), **daily.puzzle(number), "streak": streaks(game, player, day), "answer": answer}

    def puzzle_answer(game: str, player: str, guess: dict[str, Any]) -> dict[str, Any]:
        daily, day = decision_of(game), utc_today()
        number = daily.of_day(secret(), day)
        try:
            p, best = daily.chances(number, guess)
        except IllegalAction as error:
            raise HTTPException(status_code=400, detail=explain(error)) from None
        row = {
            **new_row(game, player, day, number),
            "moves": [guess],
            "step": 1,
            "finished": True,
            "solved": p >= best,
            "score": round(100 * p / best),
        }
        try:
            with engine.begin() as db:
                db.execute(insert(puzzle_attempts).values(**row))
        except IntegrityError:
            raise HTTPException(status_code=409, detail=_("today's puzzle is already answered")) from None
        return puzzle_shown(game, player)

    @router.get("/api/daily/{game}", responses=NEEDS_PLAYER, response_model=Puzzle)
    async def today(game: str, player: Player = Depends(required_player)) -> dict[str, Any]:
        return await asyncio.to_thread(puzzle_shown, game, player_key(player))

    @router.post("/api/daily/{game}", responses={**NEEDS_PLAYER, 409: ERRORS[400]}, response_model=Attempt | Puzzle)
    async def begin(
        game: str, body: StartRequest | GuessRequest, player: Player = Depends(required_player)
    ) -> dict[str, Any]:
        """A solo daily's attempt (``{"practice"}``), or a decision daily's answer (``{"guess"}``)."""
        key = player_key(player)
        if isinstance(body, GuessRequest):
            return await asyncio.to_thread(puzzle_answer, game, key, body.guess)
        row = await asyncio.to_thread(start, game, key, body.practice)
        return await asyncio.to_thread(shown, row, key)

    @router.get("/api/daily/{game}/{attempt_id}", responses=NEEDS_PLAYER, response_model=Attempt)
    async def show(game: str, attempt_id: str, player: Player = Depends(required_player)) -> dict[str, Any]:
        key = player_key(player)
        row = await asyncio.to_thread(attempt, game, key, attempt_id)
        return await asyncio.to_thread(shown, row, key)

    @router.post("/api/daily/{game}/{attempt_id}", responses=NEEDS_PLAYER, response_model=Attempt)
    async def act(
        game: str, attempt_id: str, body: PlayRequest, player: Player = Depends(required_player)
    ) -> dict[str, Any]:
        key = player_key(player)
        row, event = await asyncio.to_thread(play, game, key, attempt_id, body.action)
        return {**(await asyncio.to_thread(shown, row, key)), "event": event}

    return router
