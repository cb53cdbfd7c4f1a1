"""A score-keeping session on every phone at the table (记分 · 多人同步; docs/hall.md,
"The score-keeper on every phone").

A session is made by a phone with an identity (``X-Laizi-Person``; a client without one
is given a guest identity, its ``credential`` in the answer) and that person is its first
**member**. Its **join link** ``BASE/score?s=ID#join=SECRET`` (and its QR code) carries a
128-bit secret: a phone that opens it joins the session as a member with its own
identity. The id alone (in every member's address bar) shows the ledger but writes
nothing: entering a hand or taking back the last one is for members, any member (the
table is the judge of who taps; the hall keeps who entered each hand). The secret is in
the link's fragment, which a browser never sends, so no server or proxy log holds it; it
is stored as it is, since every member may show the link again.

==============================================  ========================================
``POST /api/score/sessions``                    ``{"variant", "options", "names",
                                                "club"}`` → 201, the session
``GET /api/score/sessions/{id}``                the session: ``names``, ``hands``,
                                                ``ledger``, ``version``, ``members``,
                                                ``member`` (whether the caller is one),
                                                ``club``
``GET /api/score/sessions/{id}/version``        ``{"version"}``: what the phones poll
``POST /api/score/sessions/{id}/join``          ``{"secret"}`` → the session; the
                                                caller is a member
``GET /api/score/sessions/{id}/link``           members: ``{"link", "qr"}``
``POST /api/score/sessions/{id}/hands``         members: ``{"record", "version"}``
``DELETE /api/score/sessions/{id}/hands/last``  members: ``?version=V``
``POST /api/score/sessions/{id}/close``         members: ``{"version", "persons"?}``
                                                → the session, closed (结束并记入账本)
``GET /api/score/sessions/{id}/export``         the session as a JSON file
==============================================  ========================================

A session may belong to a **club** (``club``: its id; the maker must be a member of it,
else ``404 unknown_club`` / ``403 not_club_member`` and nothing is made). The club's
page lists its sessions. Once the evening is over a member who is also a club member
**closes** it: from then on it is read-only (entering or taking back a hand is ``409
session_closed``) and every hand is appended to the club's ledger, in order, once
(:meth:`laizi.server.club_books.Books.sync`; docs/clubs.md). ``persons`` maps names of
the session to club members (person ids) for the ledger's totals per member. Closing a
closed session changes nothing and appends nothing again. A session without a club may
be closed too: it is read-only from then on.

``version`` moves with every hand entered or taken back. A write names the version its
phone showed; when another phone wrote first it is ``409 stale_version`` and changes
nothing (the page then loads the session again), so two phones never both store "hand
N". A write that names no version (an API client, a hand kept offline) is checked
against the version read when it arrived. A stranger's write is ``403
score_members_only``; a wrong secret too.

A session stored before migration 0006 has no secret and no member: the first phone that
joins it (no secret needed) claims it, as its id alone was its key until then.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import secrets
import time
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.club_ledger import SESSION_FORMAT
from laizi.errors import ErrorCode, LaiziError
from laizi.reasons import payments_with_parts
from laizi.server.context import context_of
from laizi.server.http import qr_svg
from laizi.server.lan import share_base
from laizi.server.people import PersonRow
from laizi.server.people_api import person_of
from laizi.server.scorekeeper import (
    INVALID,
    MAX_HANDS,
    ScoreError,
    ScoreHandRow,
    ScoreMemberRow,
    ScoreSessionRow,
    _body,
    _engine,
    _fail,
    _Invalid,
    _settle,
)

__all__ = ["club_sessions", "routes", "session_data"]


_STATUS = {ErrorCode.UNKNOWN_ROOM: 404, ErrorCode.UNKNOWN_PERSON: 401,
           ErrorCode.SCORE_MEMBERS_ONLY: 403, ErrorCode.STALE_VERSION: 409,
           ErrorCode.RATE_LIMITED: 429, ErrorCode.SESSION_CLOSED: 409,
           ErrorCode.UNKNOWN_CLUB: 404, ErrorCode.NOT_CLUB_MEMBER: 403}


def _error(exc: LaiziError) -> JSONResponse:
    return _fail(exc.code, exc.message, _STATUS.get(exc.code, 400))


def _check_names(names: object, seats: int) -> list[str]:
    if not isinstance(names, list) or len(names) != seats:
        raise ScoreError(f"names: one name a seat ({seats})")
    out = []
    for n in names:
        if not isinstance(n, str) or not n.strip() or len(n) > 24 or not n.isprintable():
            raise ScoreError(f"names: a name is 1-24 printable characters, got {n!r}")
        out.append(n.strip())
    return out


def _check_club(club: object) -> str | None:
    """The club a session names: an id of at most 32 printable characters, or none
    (that it is a club the caller is a member of: :func:`_club_member`)."""
    if club is None:
        return None
    if not isinstance(club, str) or not 0 < len(club) <= 32 or not club.isprintable():
        raise ScoreError(f"club: a club id (1-32 characters), got {club!r}")
    return club


def _read_options(vid: object, options: object) -> str:
    from laizi.variants import get, ids

    if not isinstance(vid, str) or vid not in ids():
        raise ScoreError(f"variant must be one of {', '.join(ids())}, got {vid!r}")
    if not isinstance(options, dict):
        raise ScoreError("options are a JSON object")
    variant = get(vid)
    try:
        variant.options_to_json(variant.options_from_json(options))
    except (LaiziError, ValueError, TypeError) as exc:
        raise ScoreError(f"options: {exc}", code=ErrorCode.BAD_OPTION) from None
    return vid


async def _caller(request: Request, guest: bool = False) -> tuple[str | None, str | None]:
    """(person id, a new guest's credential): the request's identity; without one, a
    guest identity made now when ``guest`` (counted as ``POST /api/me`` is), else none."""
    found = await person_of(request)
    if found is not None:
        return found[0], None
    if not guest:
        return None, None
    limits = context_of(request).limits
    await limits.hit("identity", f"address:{request.client.host if request.client else ''}")
    made = await context_of(request).people.create("记分")
    return made.person, made.header


async def _club_member(request: Request, club: str) -> None:
    """The caller is a member of the club (``unknown_club`` / ``not_club_member``
    otherwise; a caller without an identity is no member)."""

    found = await person_of(request)
    clubs = context_of(request).clubs
    await clubs.club(club)
    if found is None or await clubs.role(club, found[0]) is None:
        raise ScoreError(f"only members of club {club} may keep its score",
                         code=ErrorCode.NOT_CLUB_MEMBER)


async def create_session(request: Request) -> Response:
    from laizi.variants import get

    try:
        data = await _body(request)
        extra = sorted(set(data) - {"variant", "options", "names", "club"})
        if extra:
            raise ScoreError(f"unknown field(s) {', '.join(extra)}")
        vid = _read_options(data.get("variant"), data.get("options", {}))
        seats = get(vid).seats
        names = _check_names(data.get("names", [f"{i + 1}" for i in range(seats)]), seats)
        club = _check_club(data.get("club"))
        if club is not None:
            await _club_member(request, club)
        person, credential = await _caller(request, guest=True)
    except LaiziError as exc:
        return _error(exc)
    sid = secrets.token_urlsafe(9)
    now = time.time()
    async with _engine(request).begin() as conn:
        await conn.execute(insert(ScoreSessionRow).values(
            id=sid, variant=vid,
            options=json.dumps(data.get("options", {}), ensure_ascii=False),
            names=json.dumps(names, ensure_ascii=False), created=now, updated=now,
            secret=secrets.token_urlsafe(16), version=0, club=club))
        await conn.execute(insert(ScoreMemberRow).values(session=sid, person=person,
                                                         joined=now))
    out = await _session(request, sid, person)
    if credential is not None:
        out["credential"] = credential  # a guest's: sent back as X-Laizi-Person
    return JSONResponse(out, status_code=201)


async def _session(request: Request, sid: str, person: str | None) -> dict[str, Any]:
    return await session_data(_engine(request), sid, person)


async def session_data(engine: AsyncEngine, sid: str, person: str | None
                       ) -> dict[str, Any]:
    """The session as every phone shows it, with whether ``person`` is a member."""
    async with engine.connect() as conn:
        row = (await conn.execute(select(ScoreSessionRow)
                                  .where(ScoreSessionRow.id == sid))).first()
        if row is None:
            raise ScoreError(f"no score-keeping session {sid!r}", code=ErrorCode.UNKNOWN_ROOM)
        hands = (await conn.execute(
            select(ScoreHandRow.n, ScoreHandRow.record, ScoreHandRow.settlement,
                   ScoreHandRow.created, PersonRow.name)
            .outerjoin(PersonRow, PersonRow.id == ScoreHandRow.person)
            .where(ScoreHandRow.session == sid).order_by(ScoreHandRow.n))).all()
        members = (await conn.execute(
            select(ScoreMemberRow.person, PersonRow.name)
            .join(PersonRow, PersonRow.id == ScoreMemberRow.person)
            .where(ScoreMemberRow.session == sid).order_by(ScoreMemberRow.joined))).all()
    names: list[str] = json.loads(row.names)
    ledger = [0] * len(names)
    out_hands = []
    for n, record, settlement, created, by in hands:
        s = json.loads(settlement)
        for seat, amount in enumerate(s["net"][:len(names)]):
            ledger[seat] += amount
        s["payments"] = payments_with_parts(s.get("payments", []))
        out_hands.append({"n": n, "record": json.loads(record), "settlement": s,
                          "created": created, "ledger": list(ledger), "by": by})
    return {"id": row.id, "variant": row.variant, "options": json.loads(row.options),
            "names": names, "created": row.created, "updated": row.updated,
            "hands": out_hands, "ledger": ledger, "version": row.version, "club": row.club,
            "closed": row.closed,
            "members": [m[1] for m in members],
            "member": person is not None and any(m[0] == person for m in members),
            "claimable": row.secret is None and not members}


async def get_session(request: Request) -> Response:
    try:
        person, _ = await _caller(request)
        return JSONResponse(await _session(request, request.path_params["id"], person),
                            headers={"Cache-Control": "no-store"})
    except LaiziError as exc:
        return _error(exc)


async def version(request: Request) -> Response:
    """What every phone polls: one indexed read, no rows of hands."""
    async with _engine(request).connect() as conn:
        found = (await conn.execute(select(ScoreSessionRow.version).where(
            ScoreSessionRow.id == request.path_params["id"]))).first()
    if found is None:
        return _fail(ErrorCode.UNKNOWN_ROOM, "no such score-keeping session", 404)
    return JSONResponse({"version": found[0]}, headers={"Cache-Control": "no-store"})


async def join(request: Request) -> Response:
    """The caller joins with the link's secret (a member already: nothing changes; a
    session from before 0006 without members: claimed, and given a secret)."""
    sid = request.path_params["id"]
    try:
        data = await _body(request)
        if set(data) - {"secret"}:
            raise ScoreError("the body is {\"secret\"}")
        person, credential = await _caller(request, guest=True)
        assert person is not None
        session = await _session(request, sid, person)
        if not session["member"]:
            # the same phone's second tap, at once: a member already
            with contextlib.suppress(IntegrityError):
                await _admit(request, sid, person, data.get("secret"), session["claimable"])
        out = await _session(request, sid, person)
    except LaiziError as exc:
        return _error(exc)
    if credential is not None:
        out["credential"] = credential
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


async def _admit(request: Request, sid: str, person: str, given: object,
                 claimable: bool) -> None:
    async with _engine(request).begin() as conn:
        secret = (await conn.execute(select(ScoreSessionRow.secret).where(
            ScoreSessionRow.id == sid))).scalar()
        if secret is None and claimable:
            await conn.execute(update(ScoreSessionRow).where(ScoreSessionRow.id == sid)
                               .values(secret=secrets.token_urlsafe(16)))
        elif secret is None or not isinstance(given, str) or not hmac.compare_digest(
                given.encode(), secret.encode()):
            raise ScoreError("this is not the session's join link",
                             code=ErrorCode.SCORE_MEMBERS_ONLY)
        await conn.execute(insert(ScoreMemberRow).values(
            session=sid, person=person, joined=time.time()))


async def _member(request: Request, sid: str) -> tuple[str, dict[str, Any]]:
    """(person, session) of a member's write; ``score_members_only`` for anyone else."""
    person, _ = await _caller(request)
    session = await _session(request, sid, person)
    if person is None or not session["member"]:
        raise ScoreError("only the session's members (who joined by its link) may do this",
                         code=ErrorCode.SCORE_MEMBERS_ONLY)
    return person, session


def _open(session: dict[str, Any]) -> None:
    """A closed session takes no hand and gives none back: ``session_closed``."""
    if session["closed"] is not None:
        raise ScoreError("the session is closed (its hands are in the club's ledger): "
                         "start a new one", code=ErrorCode.SESSION_CLOSED)


def _seen(value: object, session: dict[str, Any]) -> int:
    """The version the phone showed (``None``: the one read now), or ``stale_version``."""
    if value is None:
        return int(session["version"])
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScoreError(f"version: an integer, got {value!r}")
    if value != session["version"]:
        raise _stale()
    return value


def _stale() -> ScoreError:
    return ScoreError("another phone changed the ledger first: look again",
                      code=ErrorCode.STALE_VERSION)


async def _bump(conn: Any, sid: str, seen: int, now: float) -> None:
    """Move the version on from ``seen``, or ``stale_version``: the one write that two
    phones race for (the row's update is atomic on SQLite and PostgreSQL alike)."""
    moved = await conn.execute(update(ScoreSessionRow).where(
        ScoreSessionRow.id == sid, ScoreSessionRow.version == seen,
        ScoreSessionRow.closed.is_(None))
        .values(version=seen + 1, updated=now))
    if moved.rowcount != 1:
        raise _stale()


async def add_hand(request: Request) -> Response:
    sid = request.path_params["id"]
    try:
        person, session = await _member(request, sid)
        _open(session)
        data = await _body(request)
        if set(data) - {"record", "version"}:
            raise ScoreError("the body is {\"record\": {...}, \"version\": V}")
        seen = _seen(data.get("version"), session)
        record = data.get("record")
        if not isinstance(record, dict):
            raise ScoreError("record is a hand record (a JSON object)")
        if record.get("variant", session["variant"]) != session["variant"]:
            raise ScoreError(f"this session keeps score of {session['variant']}")
        record = {"options": session["options"], **record, "variant": session["variant"]}
        if len(session["hands"]) >= MAX_HANDS:
            raise ScoreError(f"a session holds at most {MAX_HANDS} hands")
        settled = _settle(record)
        await _store_hand(request, sid, person, seen, settled)
        return JSONResponse(await _session(request, sid, person), status_code=201)
    except _Invalid as exc:
        return _fail(INVALID, str(exc), refusal=exc.refusal)
    except LaiziError as exc:
        return _error(exc)


async def _store_hand(request: Request, sid: str, person: str, seen: int,
                      settled: dict[str, object]) -> None:
    now = time.time()
    stored = {k: v for k, v in settled.items() if k != "record"}
    try:
        async with _engine(request).begin() as conn:
            await _bump(conn, sid, seen, now)
            n = (await conn.execute(select(func.count()).select_from(ScoreHandRow).where(
                ScoreHandRow.session == sid))).scalar_one()
            await conn.execute(insert(ScoreHandRow).values(
                session=sid, n=n, record=json.dumps(settled["record"], ensure_ascii=False),
                settlement=json.dumps(stored, ensure_ascii=False), created=now,
                person=person))
    except IntegrityError:  # hand N stored by another phone meanwhile: nothing of this one
        raise _stale() from None


async def undo_hand(request: Request) -> Response:
    """Take back the last hand: any member (as any member may enter one), of the
    version their phone showed."""
    sid = request.path_params["id"]
    try:
        person, session = await _member(request, sid)
        _open(session)
        seen = _seen(request.query_params.get("version"), session)
        if session["hands"]:
            n = session["hands"][-1]["n"]
            async with _engine(request).begin() as conn:
                await _bump(conn, sid, seen, time.time())
                await conn.execute(delete(ScoreHandRow).where(ScoreHandRow.session == sid,
                                                              ScoreHandRow.n == n))
        return JSONResponse(await _session(request, sid, person))
    except LaiziError as exc:
        return _error(exc)


async def link(request: Request) -> Response:
    """A member's join link and its QR code (segno, as the hall's room links)."""
    sid = request.path_params["id"]
    try:
        await _member(request, sid)
    except LaiziError as exc:
        return _error(exc)
    async with _engine(request).connect() as conn:
        secret = (await conn.execute(select(ScoreSessionRow.secret).where(
            ScoreSessionRow.id == sid))).scalar()
    # the address friends open: the page's own, or a LAN one when this machine opened
    # the page on loopback (as the room links, GET /api/share)
    reach = context_of(request)
    base = share_base(request, reach.listen_host, await reach.lan_found())["base"]
    url = f"{base}/score?s={sid}#join={secret}"
    return JSONResponse({"link": url, "qr": qr_svg(url)}, headers={"Cache-Control": "no-store"})


async def close(request: Request) -> Response:
    """A member closes the session (结束并记入账本): read-only from now on, and its
    hands go to its club's ledger. Closing it again (two phones at once) changes
    nothing; the ledger is caught up either way."""
    sid = request.path_params["id"]
    try:
        person, session = await _member(request, sid)
        data = await _body(request)
        if set(data) - {"version", "persons"}:
            raise ScoreError("the body is {\"version\": V, \"persons\": {name: person}}")
        club = session["club"]
        if club is not None:
            await _club_member(request, club)
        if session["closed"] is None:
            persons = await _persons(request, club, session["names"], data.get("persons"))
            await _close(request, sid, _seen(data.get("version"), session), persons)
        if club is not None:
            await context_of(request).books.sync(club)
        return JSONResponse(await _session(request, sid, person))
    except LaiziError as exc:
        return _error(exc)


async def _persons(request: Request, club: str | None, names: list[str],
                   given: object) -> dict[str, str]:
    """``persons`` of a close: names of the session → club members, for the ledger."""

    if given is None:
        return {}
    if club is None or not isinstance(given, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in given.items()):
        raise ScoreError("persons: {name: person id} of a club's session")
    clubs = context_of(request).clubs
    for name, who in given.items():
        if name not in names:
            raise ScoreError(f"persons: {name!r} is not a name of the session")
        if await clubs.role(club, who) is None:
            raise ScoreError(f"persons: {who!r} is not a member of the club",
                             code=ErrorCode.NOT_CLUB_MEMBER)
    return dict(given)


async def _close(request: Request, sid: str, seen: int, persons: dict[str, str]) -> None:
    """Close the session of the version the phone showed; a close that another phone
    made first is this one too (``stale_version`` only for a hand entered meanwhile)."""
    now = time.time()
    async with _engine(request).begin() as conn:
        moved = await conn.execute(update(ScoreSessionRow).where(
            ScoreSessionRow.id == sid, ScoreSessionRow.version == seen,
            ScoreSessionRow.closed.is_(None))
            .values(version=seen + 1, updated=now, closed=now,
                    persons=json.dumps(persons, ensure_ascii=False)))
        if moved.rowcount != 1:
            closed = (await conn.execute(select(ScoreSessionRow.closed).where(
                ScoreSessionRow.id == sid))).scalar()
            if closed is None:
                raise _stale()


async def club_sessions(engine: AsyncEngine, club: str, limit: int = 20
                        ) -> list[dict[str, Any]]:
    """The club's score-keeping sessions, the latest first: ``{"id", "variant",
    "names", "hands", "created", "closed"}`` (what the club's page lists)."""
    hands = (select(ScoreHandRow.session, func.count().label("n"))
             .group_by(ScoreHandRow.session).subquery())
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(ScoreSessionRow.id, ScoreSessionRow.variant, ScoreSessionRow.names,
                   ScoreSessionRow.created, ScoreSessionRow.closed, hands.c.n)
            .outerjoin(hands, hands.c.session == ScoreSessionRow.id)
            .where(ScoreSessionRow.club == club)
            .order_by(ScoreSessionRow.created.desc()).limit(limit))).all()
    return [{"id": i, "variant": v, "names": json.loads(names), "hands": n or 0,
             "created": created, "closed": closed}
            for i, v, names, created, closed, n in rows]


async def export(request: Request) -> Response:
    sid = request.path_params["id"]
    try:
        session = await _session(request, sid, None)
    except LaiziError as exc:
        return _error(exc)
    for key in ("member", "claimable"):
        session.pop(key)
    body = json.dumps({"format": SESSION_FORMAT, **session}, ensure_ascii=False,
                      indent=2)
    return Response(body, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="laizi-score-{sid}.json"'})


def routes() -> list[Route]:
    return [
        Route("/api/score/sessions", create_session, methods=["POST"]),
        Route("/api/score/sessions/{id}", get_session),
        Route("/api/score/sessions/{id}/version", version),
        Route("/api/score/sessions/{id}/join", join, methods=["POST"]),
        Route("/api/score/sessions/{id}/link", link),
        Route("/api/score/sessions/{id}/hands", add_hand, methods=["POST"]),
        Route("/api/score/sessions/{id}/hands/last", undo_hand, methods=["DELETE"]),
        Route("/api/score/sessions/{id}/close", close, methods=["POST"]),
        Route("/api/score/sessions/{id}/export", export),
    ]
