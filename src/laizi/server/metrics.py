"""``GET /metrics``: the hall in the Prometheus text format (prometheus-client).

With ``laizi serve --workers N`` every worker process is a hall of its own and a scrape
lands on one of them, so the metrics use prometheus-client's *multiprocess mode*: the
serve command creates a fresh ``PROMETHEUS_MULTIPROC_DIR`` before the workers start, each
process writes its values to files there, and whichever process answers the scrape sums
them (counters and histograms summed, gauges ``livesum``: the processes alive now). One
series per metric, whichever process answers: the figures an operator wants (rooms,
actions/s) are the hall's, not a process's (docs/deploy.md, "Metrics").

The gauges (rooms by status, people online) are set from the hall by :func:`refresh`:
before each scrape for the answering process, and every few seconds by each process's
own task (:func:`refresh_forever`) for the others.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from typing import Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from laizi.vocab import ClientOp

__all__ = [
    "CONTENT_TYPE_LATEST",
    "MULTIPROC_ENV",
    "observe_answer",
    "process_exit",
    "refresh",
    "refresh_forever",
    "render",
    "storage_batch",
]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

ROOMS = Gauge("laizi_rooms", "Rooms in memory by status (live, idle, paused, over)",
              ["status"], multiprocess_mode="livesum")
PEOPLE = Gauge("laizi_people_online", "Members of a room with a connection open",
               multiprocess_mode="livesum")
ACTIONS = Counter("laizi_actions", "Actions (act messages) acknowledged")
ACTION_SECONDS = Histogram("laizi_action_seconds",
                           "From receiving an act message to its answer (ack or error)",
                           buckets=_LATENCY_BUCKETS)
STORAGE_BATCH_SECONDS = Histogram("laizi_storage_batch_seconds",
                                  "One group commit of the storage writer",
                                  buckets=_LATENCY_BUCKETS)
ERRORS = Counter("laizi_errors", "Typed errors answered (websocket and HTTP) by code",
                 ["code"])
READY = Gauge("laizi_ready", "1 while the process takes rooms, 0 while draining",
              multiprocess_mode="livemin")


class _RoomLike(Protocol):
    closed: bool
    paused: bool

    def waits_for_people(self) -> bool: ...

    @property
    def members(self) -> Mapping[str, _MemberLike]: ...


class _MemberLike(Protocol):
    @property
    def connections(self) -> object: ...


class _HallLike(Protocol):
    draining: bool

    @property
    def rooms(self) -> Mapping[str, _RoomLike]: ...


def observe_answer(op: str | None, answer: object, seconds: float) -> None:
    """One message answered on a websocket: an act's latency and count; an error's
    code."""
    error = answer.get("error") if isinstance(answer, dict) else None
    if isinstance(error, dict):
        ERRORS.labels(str(error.get("code"))).inc()
    if op == ClientOp.ACT:
        ACTION_SECONDS.observe(seconds)
        if error is None:
            ACTIONS.inc()


def error(code: str) -> None:
    """A typed error answered over HTTP."""
    ERRORS.labels(code).inc()


def storage_batch(seconds: float) -> None:
    STORAGE_BATCH_SECONDS.observe(seconds)


def refresh(hall: _HallLike) -> None:
    """Set this process's gauges from its hall."""
    counts = {"live": 0, "idle": 0, "paused": 0, "over": 0}
    people = 0
    for room in list(hall.rooms.values()):
        if room.closed:
            counts["over"] += 1
            continue
        counts["paused" if room.paused else "idle" if room.waits_for_people()
               else "live"] += 1
        people += sum(1 for m in room.members.values() if m.connections)
    for status, n in counts.items():
        ROOMS.labels(status).set(n)
    PEOPLE.set(people)
    READY.set(0 if hall.draining else 1)


async def refresh_forever(hall: _HallLike, every: float = 5.0) -> None:
    """Keep this process's gauges fresh for scrapes another process answers."""
    while True:
        refresh(hall)
        await asyncio.sleep(every)


def render(hall: _HallLike) -> bytes:
    """The text a scrape gets: every process's metrics in multiprocess mode, else this
    process's."""
    refresh(hall)
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def process_exit() -> None:
    """This process stops: in multiprocess mode its live gauges stop counting."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def now() -> float:
    return time.perf_counter()
