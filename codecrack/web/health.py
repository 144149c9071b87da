"""Liveness and readiness, for a load balancer, an orchestrator or a container's ``HEALTHCHECK``:
``GET /healthz`` (the process and its event loop answer) and ``GET /readyz`` (this instance should
be sent players). Both are cheap enough to be polled every second; neither touches a table.

``/readyz`` answers 200 ``{"ready": true}``, or 503 ``{"ready": false, "failing": [...]}`` naming
each check that failed:

- ``database``: the database did not answer within ``CHECK_SECONDS``;
- ``migrations``: the database is not at this codecrack's newest migration;
- ``redis``: Redis (when configured) did not answer;
- ``writer``: writes have waited ``WRITER_STALL_SECONDS`` without the writer answering any;
- ``draining``: the instance is shutting down (:mod:`.draining`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from .migrate import head_revision, stored_revision

if TYPE_CHECKING:
    from .draining import Drain
    from .hub import Hub

CHECK_SECONDS = 2.0  # a check that takes longer fails
WRITER_STALL_SECONDS = 5.0


async def failing_checks(hub: Hub, drain: Drain) -> list[str]:
    """The names of the readiness checks that fail right now (see the module's text)."""
    failing = ["draining"] if drain.active else []
    try:
        stored = await asyncio.wait_for(asyncio.to_thread(stored_revision, hub.engine), CHECK_SECONDS)
        if stored != head_revision():
            failing.append("migrations")
    except Exception:  # any failure to answer is the check failing
        failing.append("database")
    redis = getattr(hub.fanout, "redis", None)  # with Redis: the cluster's client
    if redis is not None:
        try:
            await asyncio.wait_for(redis.ping(), CHECK_SECONDS)
        except Exception:
            failing.append("redis")
    if hub.writer.stalled_for() >= WRITER_STALL_SECONDS:
        failing.append("writer")
    return failing


def health_router(hub: Hub, drain: Drain) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"alive": True}

    @router.get("/readyz")
    async def readyz() -> JSONResponse:
        failing = await failing_checks(hub, drain)
        if failing:
            return JSONResponse({"ready": False, "failing": failing}, status_code=503)
        return JSONResponse({"ready": True})

    return router
