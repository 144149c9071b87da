"""Prometheus metrics (``GET /metrics``, ``prometheus-client``): what an operator graphs and alerts
on. docs/deploy.md lists them with sample queries. No label ever holds a table's code, a name or a
token: labels are a handful of fixed words, so that no series grows with the players.

The counters and histograms live in one registry per process (:data:`REGISTRY`), updated where
things happen through the functions below; the gauges (live tables, sockets, the writer's queue)
are read from the instance's hub when scraped (:class:`HubGauges`). ``CODECRACK_METRICS=false``
turns all of it off (no route, nothing counted): ``codecrack loadtest`` measures both ways
(docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric

if TYPE_CHECKING:
    from .draining import Drain
    from .hub import Hub

REGISTRY = CollectorRegistry()
LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
ACTIONS = Counter(
    "codecrack_actions",
    "Actions submitted, by outcome: accepted, or the refusal's kind",
    ["outcome"],
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "codecrack_action_commit_seconds", "From an action's receipt to its commit", buckets=LATENCY, registry=REGISTRY
)
BROADCAST_SECONDS = Histogram(
    "codecrack_action_broadcast_seconds",
    "From an action's receipt to its new state handed to every socket here",
    buckets=LATENCY,
    registry=REGISTRY,
)
BATCH_SIZE = Histogram(
    "codecrack_writer_batch_size",
    "Writes committed in one transaction",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
    registry=REGISTRY,
)
STORE_ERRORS = Counter("codecrack_store_errors", "Writes that failed (nothing of them stored)", registry=REGISTRY)
LOOP_LAG = Histogram(
    "codecrack_event_loop_lag_seconds",
    "How late the event loop woke a timer (sampled every half second)",
    buckets=LATENCY,
    registry=REGISTRY,
)
BOT_SECONDS = Histogram(
    "codecrack_bot_decision_seconds", "A bot's thinking time per decision", buckets=LATENCY, registry=REGISTRY
)
FANOUT = Counter(
    "codecrack_fanout_messages",
    "Messages between instances through Redis, by direction",
    ["direction"],
    registry=REGISTRY,
)
LEASES = Counter(
    "codecrack_lease_changes",
    "Table driver leases taken, lost or released by this instance",
    ["change"],
    registry=REGISTRY,
)
LAG_INTERVAL = 0.5
# Series that exist from the start (at 0), so that a rate sees their first increase. The outcomes'
# series are kept here once made: ``labels`` takes a lock and builds a key at every call.
OUTCOMES = {"accepted": ACTIONS.labels("accepted")}
for _direction in ("sent", "heard"):
    FANOUT.labels(_direction)
for _change in ("taken", "lost", "released"):
    LEASES.labels(_change)

on = True  # CODECRACK_METRICS: set by create_app


def action(outcome: str, received: float, committed: float | None = None, shown: float | None = None) -> None:
    """An action's outcome (``accepted`` or a refusal's kind) and, once accepted, when (``time.perf_counter``)
    it was received, committed and shown."""
    if not on:
        return
    series = OUTCOMES.get(outcome)
    if series is None:
        series = OUTCOMES[outcome] = ACTIONS.labels(outcome)
    series.inc()
    if committed is not None:
        COMMIT_SECONDS.observe(committed - received)
    if shown is not None:
        BROADCAST_SECONDS.observe(shown - received)


def batch(size: int, failed: int) -> None:
    if on:
        BATCH_SIZE.observe(size)
        if failed:
            STORE_ERRORS.inc(failed)


def bot_decided(seconds: float) -> None:
    if on:
        BOT_SECONDS.observe(seconds)


def fanout(direction: str, count: int = 1) -> None:
    if on:
        FANOUT.labels(direction).inc(count)


def leases(change: str, count: int) -> None:
    if on and count:
        LEASES.labels(change).inc(count)


class HubGauges:
    """The gauges read from one instance's hub at each scrape."""

    def __init__(self, hub: Hub, drain: Drain) -> None:
        self.hub, self.drain = hub, drain

    def collect(self) -> Iterator[Metric]:
        live = list(self.hub.live.values())
        yield GaugeMetricFamily("codecrack_live_tables", "Tables loaded on this instance", value=len(live))
        sockets = GaugeMetricFamily("codecrack_sockets", "Open game websockets, by kind", labels=["kind"])
        seated = sum(1 for table in live for connection in table.connections if connection.seat is not None)
        spectating = sum(len(table.connections) for table in live) - seated
        sockets.add_metric(["seated"], seated)
        sockets.add_metric(["spectator"], spectating)
        yield sockets
        yield GaugeMetricFamily(
            "codecrack_writer_queue_depth", "Writes queued and not committed yet", value=self.hub.writer.pending
        )
        yield GaugeMetricFamily("codecrack_draining", "1 while this instance drains", value=int(self.drain.active))


async def watch_loop_lag() -> None:
    """Sample how late the event loop runs: a sleep of ``LAG_INTERVAL`` that wakes later shows it busy."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_INTERVAL)
        LOOP_LAG.observe(max(0.0, time.perf_counter() - asked - LAG_INTERVAL))


def metrics_router(hub: Hub, drain: Drain) -> APIRouter:
    """``GET /metrics``: the process's counters and histograms, and this instance's gauges."""
    router = APIRouter(include_in_schema=False)
    gauges = CollectorRegistry()
    gauges.register(HubGauges(hub, drain))

    @router.get("/metrics")
    async def scrape() -> Response:
        return Response(generate_latest(REGISTRY) + generate_latest(gauges), media_type=CONTENT_TYPE_LATEST)

    return router
