"""Daily puzzles over HTTP: the daily Alphabet Code (:mod:`codecrack.games.alphacode.daily`) and
the daily Coda puzzle (:mod:`codecrack.games.coda.puzzles`).

- ``POST /api/daily/alphacode`` ``{"practice": false}``: today's attempt of this player (made on
  the first call, the same one afterwards: one scored attempt a day); ``{"practice": true}``: a
  new attempt at a random code, unscored, as many as wanted.
- ``GET /api/daily/alphacode/{id}``: an attempt; ``POST /api/daily/alphacode/{id}`` ``{"action": ...}``
  plays a question, a declaration or ``{"type": "give_up"}``.

Players are the session's (a guest is enough; 401 without a session). An attempt is its player's
alone (another player gets 404). Until it is over it carries nothing
about its code (nor which code it is); then it carries the code, the score, how many turns the
``hard`` tier needs, the day's distribution of scores, the streak and a text to share. The day's
code comes from a secret the server draws once and keeps in its database (``server_secrets``).

- ``GET /api/daily/coda``: today's Coda puzzle (the same for everyone, chosen under the same secret):
  its grade, the seat's view and the player's streak (days in a row with the best guess);
  ``POST /api/daily/coda`` ``{"guess": action}`` answers it, once a day. The exact odds of every
  guess, which is best, and a text to share (the score, nothing of the guess) come only with the answer.
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

from ..core.errors import IllegalAction, explain
from ..games.alphacode.codes import legal_codes
from ..games.alphacode.daily import Solo, code_of_day, hard_count
from ..games.coda.puzzles import guess_action, guess_of, odds, position, puzzle_of_day, shipped
from ..i18n import _
from .players.identity import Player, required_player
from .schema import ERRORS, Problem, Strict
from .store import attempts_key, daily_pars, kept_secret, now, puzzle_attempts

GAME = "alphacode"
SECRET_NAME = "daily"
NEEDS_PLAYER = {**ERRORS, 401: {"model": Problem}}


def utc_today() -> date:
    return datetime.now(UTC).date()


class StartRequest(Strict):
    practice: StrictBool = False


class PlayRequest(Strict):
    action: dict[str, Any]


class Streak(BaseModel):
    current: int
    best: int


class Distribution(BaseModel):
    scores: dict[str, int]  # score -> players who solved with it
    unsolved: int


class DailyResult(BaseModel):
    code: list[dict[str, str]]
    hard: int
    distribution: Distribution | None  # None for practice
    share: str


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
    result: DailyResult | None
    event: dict[str, Any] | None = None  # what the action just played did


class GuessRequest(Strict):
    guess: dict[str, Any]  # a Coda guess action, as the table sends it


class GuessOdds(BaseModel):
    guess: dict[str, Any]
    p: float  # the exact chance that this guess is right, from the seat's view


class PuzzleAnswer(BaseModel):
    chosen: GuessOdds
    best: GuessOdds
    odds: list[GuessOdds]  # every guess the seat could make, the likeliest first
    solved: bool  # the chosen guess is as likely as the best
    score: int  # 100 x the chosen guess's chance / the best one's
    share: str  # the day, the score and a square: nothing of the position nor the guess


class CodaPuzzle(BaseModel):
    day: str
    grade: str
    view: dict[str, Any]  # the seat's own view, nothing more
    streak: Streak  # days in a row with the best guess
    answer: PuzzleAnswer | None  # only once the player answered


def every_guess(view: dict[str, Any]) -> dict[tuple[int, int, int], float]:
    """The chance of every guess the seat may make (0 for a value the tile cannot hold)."""
    chances = odds(view)
    legal = [guess_of(action) for action in view["legal_actions"] if action["type"] == "guess"]
    return {guess: chances.get(guess, 0.0) for guess in legal}


def player_key(player: Player) -> str:
    return attempts_key(player.id)


def daily_router(hub: Any) -> APIRouter:
    router = APIRouter()
    engine = hub.store.engine
    kept: dict[str, bytes] = {}

    def secret() -> bytes:
        """The server's daily secret, drawn by the first instance that needs it."""
        if SECRET_NAME not in kept:
            kept[SECRET_NAME] = bytes.fromhex(kept_secret(engine, SECRET_NAME, lambda: secrets.token_hex(32)))
        return kept[SECRET_NAME]

    def start(player: str, practice: bool) -> dict[str, Any]:
        day = None if practice else utc_today()
        if day is not None:
            found = find(player, day)
            if found is not None:
                return found
        puzzle = secrets.randbelow(len(legal_codes())) if practice else code_of_day(secret(), day)
        row = {
            "id": secrets.token_urlsafe(18),
            "game": GAME,
            "day": day,
            "player": player,
            "puzzle": puzzle,
            "moves": [],
            "step": 0,
            "finished": False,
            "solved": False,
            "score": 0,
            "started_at": now(),
        }
        try:
            with engine.begin() as db:
                db.execute(insert(puzzle_attempts).values(**row))
        except IntegrityError:  # the same player started today's in another request meanwhile
            return find(player, day)
        return row

    def find(player: str, day: date) -> dict[str, Any] | None:
        query = select(puzzle_attempts).where(
            puzzle_attempts.c.game == GAME, puzzle_attempts.c.day == day, puzzle_attempts.c.player == player
        )
        with engine.begin() as db:
            found = db.execute(query).mappings().first()
        return dict(found) if found else None

    def attempt(player: str, attempt_id: str) -> dict[str, Any]:
        query = select(puzzle_attempts).where(puzzle_attempts.c.id == attempt_id, puzzle_attempts.c.player == player)
        with engine.begin() as db:
            found = db.execute(query).mappings().first()
        if found is None:
            raise HTTPException(status_code=404, detail=_("no such attempt"))
        return dict(found)

    def play(player: str, attempt_id: str, action: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        row = attempt(player, attempt_id)
        solo = Solo(row["puzzle"], row["moves"])
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

    def par(row: dict[str, Any]) -> int:
        """How many turns ``hard`` needs for this attempt's code (a day's count is kept)."""
        if row["day"] is None:
            return hard_count(row["puzzle"])
        key = (daily_pars.c.game == GAME) & (daily_pars.c.day == row["day"])
        with engine.begin() as db:
            turns = db.execute(select(daily_pars.c.turns).where(key)).scalar()
        if turns is None:
            turns = hard_count(row["puzzle"])
            try:
                with engine.begin() as db:
                    db.execute(insert(daily_pars).values(game=GAME, day=row["day"], turns=turns))
            except IntegrityError:  # worked out by another request meanwhile: the same number
                pass
        return turns

    def distribution(day: date) -> dict[str, Any]:
        query = (
            select(puzzle_attempts.c.solved, puzzle_attempts.c.score, func.count())
            .where(puzzle_attempts.c.game == GAME, puzzle_attempts.c.day == day, puzzle_attempts.c.finished)
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
        """An attempt as its player sees it: nothing about its code before it is over."""
        solo = Solo(row["puzzle"], row["moves"])
        day = row["day"]
        answer: dict[str, Any] = {
            "id": row["id"],
            "game": GAME,
            "day": None if day is None else day.isoformat(),
            "practice": day is None,
            "view": solo.view(),
            "score": solo.score,
            "over": solo.over,
            "solved": solo.solved,
            "result": None,
            "streak": streaks(GAME, player, utc_today()),
        }
        if solo.over:
            hard = par(row)
            title = (
                _("codecrack daily Alphabet Code {day}: {score} (hard: {hard})").format(
                    day=answer["day"], score=solo.score if solo.solved else "X", hard=hard
                )
                if day is not None
                else _("codecrack Alphabet Code practice: {score} (hard: {hard})").format(
                    score=solo.score if solo.solved else "X", hard=hard
                )
            )
            answer["result"] = {
                "code": solo.view()["codes"][1],
                "hard": hard,
                "distribution": None if day is None else distribution(day),
                "share": "\n".join([title, *solo.grid()]),
            }
        return answer

    def coda_row(player: str, day: date) -> dict[str, Any] | None:
        query = select(puzzle_attempts).where(
            puzzle_attempts.c.game == "coda", puzzle_attempts.c.day == day, puzzle_attempts.c.player == player
        )
        with engine.begin() as db:
            found = db.execute(query).mappings().first()
        return dict(found) if found else None

    def coda_shown(number: int, day: date, player: str, row: dict[str, Any] | None) -> dict[str, Any]:
        """Today's Coda puzzle as its player sees it: the seat's view; the odds only once answered."""
        puzzle = shipped()[number]
        view = position(puzzle)
        shown: dict[str, Any] = {
            "day": day.isoformat(),
            "grade": puzzle["grade"],
            "view": view,
            "streak": streaks("coda", player, day),
            "answer": None,
        }
        if row is not None:
            chances = every_guess(view)
            ranked = sorted(chances.items(), key=lambda item: (-item[1], item[0]))
            best, chosen = ranked[0][0], guess_of(row["moves"][0])

            def entry(guess: tuple[int, int, int]) -> dict[str, Any]:
                return {"guess": guess_action(view, guess), "p": round(chances[guess], 6)}

            shown["answer"] = {
                "chosen": entry(chosen),
                "best": entry(best),
                "odds": [entry(guess) for guess, _p in ranked],
                "solved": row["solved"],
                "score": row["score"],
                "share": "\n".join(
                    [
                        _("codecrack daily Coda puzzle {day}: {score} %").format(
                            day=day.isoformat(), score=row["score"]
                        ),
                        "🟩" if row["solved"] else "🟥",
                    ]
                ),
            }
        return shown

    def coda_answer(player: str, guess: dict[str, Any]) -> dict[str, Any]:
        day = utc_today()
        number = puzzle_of_day(secret(), day)
        view = position(shipped()[number])
        if guess not in [action for action in view["legal_actions"] if action["type"] == "guess"]:
            raise HTTPException(status_code=400, detail=_("not a guess this seat can make"))
        chances = every_guess(view)
        p, best = chances[guess_of(guess)], max(chances.values())
        row = {
            "id": secrets.token_urlsafe(18),
            "game": "coda",
            "day": day,
            "player": player,
            "puzzle": number,
            "moves": [guess],
            "step": 1,
            "finished": True,
            "solved": p >= best,
            "score": round(100 * p / best),
            "started_at": now(),
        }
        try:
            with engine.begin() as db:
                db.execute(insert(puzzle_attempts).values(**row))
        except IntegrityError:
            raise HTTPException(status_code=409, detail=_("today's puzzle is already answered")) from None
        return coda_shown(number, day, player, row)

    @router.get("/api/daily/coda", responses=NEEDS_PLAYER)
    async def coda_today(player: Player = Depends(required_player)) -> CodaPuzzle:
        key, day = player_key(player), utc_today()
        number = await asyncio.to_thread(lambda: puzzle_of_day(secret(), day))
        row = await asyncio.to_thread(coda_row, key, day)
        return await asyncio.to_thread(coda_shown, number, day, key, row)

    @router.post("/api/daily/coda", responses={**NEEDS_PLAYER, 409: ERRORS[400]})
    async def coda_guess(body: GuessRequest, player: Player = Depends(required_player)) -> CodaPuzzle:
        return await asyncio.to_thread(coda_answer, player_key(player), body.guess)

    @router.post("/api/daily/alphacode", responses=NEEDS_PLAYER)
    async def begin(body: StartRequest, player: Player = Depends(required_player)) -> Attempt:
        key = player_key(player)
        row = await asyncio.to_thread(start, key, body.practice)
        return await asyncio.to_thread(shown, row, key)

    @router.get("/api/daily/alphacode/{attempt_id}", responses=NEEDS_PLAYER)
    async def show(attempt_id: str, player: Player = Depends(required_player)) -> Attempt:
        key = player_key(player)
        row = await asyncio.to_thread(attempt, key, attempt_id)
        return await asyncio.to_thread(shown, row, key)

    @router.post("/api/daily/alphacode/{attempt_id}", responses=NEEDS_PLAYER)
    async def act(attempt_id: str, body: PlayRequest, player: Player = Depends(required_player)) -> Attempt:
        key = player_key(player)
        row, event = await asyncio.to_thread(play, key, attempt_id, body.action)
        return {**(await asyncio.to_thread(shown, row, key)), "event": event}

    return router
