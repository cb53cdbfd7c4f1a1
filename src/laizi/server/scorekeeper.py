"""The score-keeper of a physical table: settle a typed-in hand, keep a session's ledger.

People playing with real tiles tap in each hand at ``/score``; the hall settles it with
the very code that settles a hand played online (the hand record, docs/hand-record.md):
``laizi.records.record_from_json`` validates it and the variant's ``settle`` pays it, as
``laizi score`` does.

==============================================  ========================================
``POST /api/score``                             ``{"record"}`` → the settlement:
                                                ``{"payments", "net", "parties",
                                                "summary", "record"}``; an impossible
                                                hand is ``400 {"error": {"code":
                                                "invalid_record", "message",
                                                "refusal"}}``
``POST /api/score/check``                       the same question, the verdict as data:
                                                ``200 {"ok": true,
                                                "settlement"}`` or ``200 {"ok": false,
                                                "error": {"code": "invalid_record",
                                                "message", "refusal"}}``
``POST /api/score/hand``                        ``{"variant", "options", "form"}`` (what
                                                the page's form holds) → ``{"record",
                                                "missing", "next"}`` and, once nothing is
                                                missing, the verdict of ``/check``
                                                (``ok`` and ``settlement`` or ``error``):
                                                :mod:`laizi.server.score_form`
``GET /api/score/variants/{id}``                the variant's tiles, seats, hand size
``GET /api/score/wildcard``                     ``?variant&indicator`` → the wildcard
``…/api/score/sessions…``                       a session and its ledger, shared by
                                                the phones at the table:
                                                :mod:`laizi.server.score_sessions` (its
                                                routes, beside these in the app)
==============================================  ========================================

Every settlement reason carries its ``parts`` (:func:`laizi.reasons.with_parts`): its
texts cut where they name a seat, so the page writes the person's name there, never a
0-based seat number. A refusal's ``message`` is English (what ``laizi score`` prints);
its ``refusal`` (:class:`laizi.reasons.Refusal`: ``code``, ``params``, ``zh``, ``en``,
``parts``) is what the page shows, in its language, with the names.

The page sends its form at every change to ``POST /api/score/hand``, which builds the
hand record on the server (:mod:`laizi.server.score_form`) and, once it is complete,
answers with the verdict of ``/api/score/check``: an impossible hand is an answer the page
shows, not a failed request (a browser logs every 4xx as a console error). A body that is
not ``{"record"}`` is still ``400``. API clients keep ``POST /api/score`` and its ``400``.

Sessions live in the hall's database (tables ``score_sessions`` and ``score_hands``,
migration ``0002_scorekeeper``; ``score_members`` and the sessions' secret, version and
club, migration ``0006``; its ``closed`` time, ``0007_score_club``).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Mapped, mapped_column
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.core.records import RecordError
from laizi.errors import ErrorCode, LaiziError
from laizi.reasons import Refusal
from laizi.records import settle_record
from laizi.server.context import context_of
from laizi.server.http import json_object
from laizi.server.score_form import build_record, next_hand
from laizi.server.storage import Base
from laizi.variants.descriptors import describe

__all__ = ["ScoreHandRow", "ScoreMemberRow", "ScoreSessionRow", "routes", "settle_record"]

MAX_BODY = 64 * 1024
MAX_HANDS = 2000
INVALID = "invalid_record"


class ScoreSessionRow(Base):
    __tablename__ = "score_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)
    names: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


    # migration 0006 (the score-keeper on every phone, :mod:`laizi.server.score_sessions`)
    secret: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The join secret its link carries (NULL: a session stored before 0006)."""
    version: Mapped[int] = mapped_column(Integer, server_default="0")
    """Moved by every hand entered or taken back: what the phones poll and check."""
    club: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The club the session belongs to (its maker a member): closing it feeds the
    club's ledger (:meth:`laizi.server.club_books.Books.sync`)."""
    # migration 0007_score_club
    closed: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a member closed it (结束): read-only from then on; NULL while open."""
    persons: Mapped[str | None] = mapped_column(Text, nullable=True)
    """At its close: its names → club members (JSON), for its club's ledger."""


class ScoreHandRow(Base):
    __tablename__ = "score_hands"

    session: Mapped[str] = mapped_column(ForeignKey("score_sessions.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    record: Mapped[str] = mapped_column(Text)
    settlement: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)
    person: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The member who entered it (NULL before 0006)."""


class ScoreMemberRow(Base):
    """A person who joined a session by its link (or made it): may enter hands."""

    __tablename__ = "score_members"

    session: Mapped[str] = mapped_column(ForeignKey("score_sessions.id"), primary_key=True)
    person: Mapped[str] = mapped_column(ForeignKey("persons.id"), primary_key=True,
                                        index=True)
    joined: Mapped[float] = mapped_column(Float)


class ScoreError(LaiziError):
    """A request the score-keeper refuses (the message says why)."""

    default_code = ErrorCode.MALFORMED


# ---------------------------------------------------------------- HTTP


def _fail(code: str, message: str, status: int = 400,
          refusal: Refusal | None = None) -> JSONResponse:
    error: dict[str, object] = {"code": code, "message": message, "seat": None, "phase": None}
    if refusal is not None:
        error["refusal"] = refusal.to_json()
    return JSONResponse({"error": error}, status_code=status)


async def _body(request: Request) -> dict[str, object]:
    return await json_object(request, limit=MAX_BODY)


def _engine(request: Request) -> AsyncEngine:
    engine: AsyncEngine = context_of(request).hall.store.engine
    return engine


def _settle(record: object) -> dict[str, object]:
    try:
        return settle_record(record)
    except (RecordError, LaiziError) as exc:
        message = str(getattr(exc, "message", exc))
        raise _Invalid(message, getattr(exc, "refusal", None)) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise _Invalid(f"the record cannot be read ({type(exc).__name__}: {exc})") from None


def refusal_of(message: str, refusal: Refusal | None = None) -> Refusal:
    """What the page shows of a refused hand: the record's own refusal, else the
    message as it is (``invalid``)."""
    return refusal if refusal is not None else Refusal.of("invalid", detail=message)


class _Invalid(Exception):
    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal_of(message, refusal)


async def score(request: Request) -> Response:
    try:
        data = await _body(request)
        if set(data) - {"record"}:
            raise ScoreError("the body is {\"record\": {...}}")
        return JSONResponse(_settle(data.get("record")))
    except _Invalid as exc:
        return _fail(INVALID, str(exc), refusal=exc.refusal)
    except LaiziError as exc:
        return _fail(exc.code, exc.message)


async def check(request: Request) -> Response:
    """``POST /api/score/check``: the verdict on a hand as data, ``200`` either way."""
    try:
        data = await _body(request)
        if set(data) - {"record"}:
            raise ScoreError("the body is {\"record\": {...}}")
        return JSONResponse({"ok": True, "settlement": _settle(data.get("record"))})
    except _Invalid as exc:
        return JSONResponse({"ok": False, "error": {
            "code": INVALID, "message": str(exc), "seat": None, "phase": None,
            "refusal": exc.refusal.to_json()}})
    except LaiziError as exc:
        return _fail(exc.code, exc.message)


async def hand(request: Request) -> Response:
    """``POST /api/score/hand``: the record the page's form makes, what it lacks, the
    next hand's dealer and facts, and (when complete) the verdict, ``200`` either way."""
    try:
        data = await _body(request)
        extra = sorted(set(data) - {"variant", "options", "form"})
        if extra:
            raise ScoreError(f"unknown field(s) {', '.join(extra)}")
        vid = data.get("variant")
        record, missing, form = build_record(vid, data.get("options", {}), data.get("form"))
        out: dict[str, object] = {"record": record,
                                  "missing": [m.to_json() for m in missing],
                                  "next": next_hand(vid, form)}
        if not missing:
            try:
                out.update(ok=True, settlement=_settle(record))
            except _Invalid as exc:
                out.update(ok=False, error={
                    "code": INVALID, "message": str(exc), "seat": None, "phase": None,
                    "refusal": exc.refusal.to_json()})
        return JSONResponse(out)
    except LaiziError as exc:
        return _fail(exc.code, exc.message)


async def wildcard(request: Request) -> Response:
    """``?variant=V&indicator=9s`` → ``{"wildcard": tile id or null}``: the wildcard the
    indicator gives, by the variant's own rule (the keeper shows it while typing)."""
    from laizi import tiles as T
    from laizi.variants import get, ids

    vid = request.query_params.get("variant", "")
    if vid not in ids():
        return _fail(ErrorCode.MALFORMED, f"variant must be one of {', '.join(ids())}")
    variant = get(vid)
    try:
        indicator = T.parse_tile(request.query_params.get("indicator", ""))
        wild = variant.wildcard_for([indicator], variant.default_options())
    except ValueError as exc:
        return _fail(ErrorCode.MALFORMED, str(exc))
    return JSONResponse({"wildcard": wild})


async def variant_info(request: Request) -> Response:
    """What the keeper's form needs of a variant: ``{"id", "seats", "hand_size",
    "tiles" (the distinct tiles of its set, flowers included), "counts" (copies of
    each), "flowers", "special_kinds", "indicator"}``."""
    from laizi.variants import get, ids

    vid = request.path_params["id"]
    if vid not in ids():
        return _fail(ErrorCode.UNKNOWN_ROOM, f"no variant {vid!r}", 404)
    v = get(vid)
    options = v.default_options()
    tiles = v.tile_set(options)
    counts: dict[int, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    return JSONResponse({
        "id": vid, "seats": v.seats, "hand_size": v.hand_size, "tiles": sorted(counts),
        "counts": {str(t): c for t, c in sorted(counts.items())},
        "flowers": sorted(v.flower_tiles(options)), "special_kinds": sorted(v.special_kinds()),
        "indicator": describe(v).wildcard is not None})  # the record names the indicator


def routes() -> list[Route]:
    return [
        Route("/api/score", score, methods=["POST"]),
        Route("/api/score/check", check, methods=["POST"]),
        Route("/api/score/hand", hand, methods=["POST"]),
        Route("/api/score/variants/{id}", variant_info),
        Route("/api/score/wildcard", wildcard),
    ]
