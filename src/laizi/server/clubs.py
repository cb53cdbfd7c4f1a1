"""Clubs (亲友圈): people who play together every week — members, managers (管理员),
an invite link, join requests a manager approves, the club's default variant and house
rules, and rooms that take its members only (docs/clubs.md, docs/hall.md "Clubs").

Tables (migration 0005): ``clubs`` (id, name, invite code, settings JSON, created),
``club_members`` (club, person, role ``manager`` / ``member``, joined, last seen),
``club_requests`` (club, person, name: waiting for a manager), ``club_rooms`` (room →
club: a member-only room) and ``club_ledger`` (:mod:`laizi.server.club_books`).

Nothing of a club — its rooms, its members, its ledger — is told to anybody but its
members (``not_club_member``); the invite code shows the club's name alone.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any, TypedDict

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from laizi.errors import ErrorCode, TableError
from laizi.server.people import PersonRow
from laizi.server.room_settings import RoomSettings
from laizi.server.storage import Base, Store

__all__ = ["ONLINE_SECONDS", "ClubLedgerRow", "ClubMemberRow", "ClubRequestRow",
           "ClubRoomRow", "ClubRow", "Clubs", "check_club_settings"]

ONLINE_SECONDS = 90.0
"""A member who opened the club's page (which asks again every 30 s) this recently is
shown online, and so is one connected to a live room of the club."""
_NAME_MAX = 32


class ClubRow(Base):
    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    invite: Mapped[str] = mapped_column(String(32), unique=True)
    settings: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)


class ClubMemberRow(Base):
    __tablename__ = "club_members"

    club: Mapped[str] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    person: Mapped[str] = mapped_column(ForeignKey("persons.id"), primary_key=True,
                                        index=True)
    role: Mapped[str] = mapped_column(String(16))
    joined: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)


class ClubRequestRow(Base):
    __tablename__ = "club_requests"

    club: Mapped[str] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    person: Mapped[str] = mapped_column(ForeignKey("persons.id"), primary_key=True)
    created: Mapped[float] = mapped_column(Float)


class ClubRoomRow(Base):
    __tablename__ = "club_rooms"

    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), primary_key=True)
    club: Mapped[str] = mapped_column(ForeignKey("clubs.id"), index=True)
    created: Mapped[float] = mapped_column(Float)


class ClubLedgerRow(Base):
    """One entry of a club's ledger (:class:`laizi.club_ledger.LedgerEntry`)."""

    __tablename__ = "club_ledger"
    __table_args__ = (UniqueConstraint("club", "room", "hand"),)

    club: Mapped[str] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    time: Mapped[int] = mapped_column(Integer)
    evening: Mapped[str] = mapped_column(String(10))
    room: Mapped[str] = mapped_column(String(48))  # a room's code, or score:<session>
    hand: Mapped[int] = mapped_column(Integer)
    net: Mapped[str] = mapped_column(Text)
    persons: Mapped[str] = mapped_column(Text)
    log_hash: Mapped[str] = mapped_column(String(64))
    prev: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


class Member(TypedDict):
    """A member as the club's page shows them."""

    id: str
    name: str
    role: str
    online: bool


def check_club_settings(data: object) -> dict[str, Any]:
    """A club's settings: ``variant`` and ``options`` (house rules, checked as a room's
    would be: :class:`RoomSettings`) and ``tz_minutes`` (the club's time, minutes east
    of UTC, for its evenings)."""
    if not isinstance(data, dict) or set(data) - {"variant", "options", "tz_minutes"}:
        raise TableError("club settings are {variant, options, tz_minutes}",
                         code=ErrorCode.MALFORMED)
    room = RoomSettings.from_json({"variant": data.get("variant", "jingzhou"),
                                   "options": data.get("options", {})})
    tz = data.get("tz_minutes", 480)
    if isinstance(tz, bool) or not isinstance(tz, int) or not -720 <= tz <= 840:
        raise TableError("tz_minutes is -720…840 (minutes east of UTC)",
                         code=ErrorCode.MALFORMED)
    return {"variant": room.variant, "options": room.options, "tz_minutes": tz}


def _club_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > _NAME_MAX \
            or not name.isprintable():
        raise TableError(f"a club's name is 1-{_NAME_MAX} printable characters",
                         code=ErrorCode.MALFORMED)
    return name.strip()


def _not_member(club: str) -> TableError:
    return TableError(f"only members of club {club} may see or do this",
                      code=ErrorCode.NOT_CLUB_MEMBER)


class Clubs:
    """The hall's clubs, on its store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, person: str, name: object, settings: object) -> str:
        """A new club of which ``person`` is the first manager; its id."""
        club = secrets.token_hex(8)
        checked = check_club_settings(settings if settings is not None else {})
        now = time.time()
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(ClubRow).values(
                id=club, name=_club_name(name), invite=secrets.token_urlsafe(9),
                settings=json.dumps(checked), created=now))
            await conn.execute(insert(ClubMemberRow).values(
                club=club, person=person, role="manager", joined=now, seen=now))
        return club

    async def club(self, club: str) -> dict[str, Any]:
        """``{"id", "name", "invite", "settings"}``; ``unknown_club`` if none."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                select(ClubRow.name, ClubRow.invite, ClubRow.settings)
                .where(ClubRow.id == club))).first()
        if row is None:
            raise TableError(f"no club {club!r}", code=ErrorCode.UNKNOWN_CLUB)
        return {"id": club, "name": row[0], "invite": row[1],
                "settings": json.loads(row[2])}

    async def role(self, club: str, person: str) -> str | None:
        async with self.store.engine.connect() as conn:
            return (await conn.execute(select(ClubMemberRow.role).where(
                ClubMemberRow.club == club, ClubMemberRow.person == person))).scalar()

    async def need_member(self, club: str, person: str, *, manager: bool = False) -> str:
        """The person's role in the club; ``not_club_member`` (or, with ``manager``,
        ``not_club_manager``) otherwise. A member who asks is seen (online)."""
        await self.club(club)
        role = await self.role(club, person)
        if role is None:
            raise _not_member(club)
        if manager and role != "manager":
            raise TableError("only a manager of the club may do this",
                             code=ErrorCode.NOT_CLUB_MANAGER)
        async with self.store.engine.begin() as conn:
            await conn.execute(update(ClubMemberRow).where(
                ClubMemberRow.club == club, ClubMemberRow.person == person)
                .values(seen=time.time()))
        return role

    async def of_person(self, person: str) -> list[dict[str, str]]:
        """The clubs a person is a member of: ``{"id", "name", "role"}``."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(ClubRow.id, ClubRow.name, ClubMemberRow.role)
                .join(ClubMemberRow, ClubMemberRow.club == ClubRow.id)
                .where(ClubMemberRow.person == person).order_by(ClubRow.created))).all()
        return [{"id": i, "name": n, "role": r} for i, n, r in rows]

    async def share_a_club(self, one: str, other: str) -> bool:
        """Whether two people are members of one club together (战绩 between them)."""
        async with self.store.engine.connect() as conn:
            mine = set((await conn.execute(select(ClubMemberRow.club).where(
                ClubMemberRow.person == one))).scalars())
            theirs = set((await conn.execute(select(ClubMemberRow.club).where(
                ClubMemberRow.person == other))).scalars())
        return bool(mine & theirs)

    async def by_invite(self, invite: object) -> tuple[str, str]:
        """(club id, name) of an invite code."""
        if not isinstance(invite, str) or not 0 < len(invite) <= 32:
            raise TableError("not an invite of this hall", code=ErrorCode.UNKNOWN_CLUB)
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(ClubRow.id, ClubRow.name).where(
                ClubRow.invite == invite))).first()
        if row is None:
            raise TableError("not an invite of this hall", code=ErrorCode.UNKNOWN_CLUB)
        return str(row[0]), str(row[1])

    async def new_invite(self, club: str) -> str:
        """A new invite code for the club (the old link stops working)."""
        invite = secrets.token_urlsafe(9)
        async with self.store.engine.begin() as conn:
            await conn.execute(update(ClubRow).where(ClubRow.id == club)
                               .values(invite=invite))
        return invite

    async def request(self, invite: object, person: str) -> tuple[str, str]:
        """Ask to join the club of an invite: (club id, ``requested`` or ``member``)."""
        club, _ = await self.by_invite(invite)
        if await self.role(club, person) is not None:
            return club, "member"
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(insert(ClubRequestRow).values(
                    club=club, person=person, created=time.time()))
        except IntegrityError:
            pass  # asked before: still waiting
        return club, "requested"

    async def requests(self, club: str) -> list[dict[str, str]]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(ClubRequestRow.person, PersonRow.name)
                .join(PersonRow, PersonRow.id == ClubRequestRow.person)
                .where(ClubRequestRow.club == club).order_by(ClubRequestRow.created))).all()
        return [{"id": p, "name": n} for p, n in rows]

    async def answer(self, club: str, person: str, approve: bool) -> None:
        """A manager's answer to a join request (the caller checked the manager)."""
        async with self.store.engine.begin() as conn:
            gone = (await conn.execute(delete(ClubRequestRow).where(
                ClubRequestRow.club == club, ClubRequestRow.person == person))).rowcount
            if not gone:
                raise TableError("nobody of that id asked to join",
                                 code=ErrorCode.TABLE_RULE)
            if approve:
                now = time.time()
                await conn.execute(insert(ClubMemberRow).values(
                    club=club, person=person, role="member", joined=now, seen=0.0))

    async def members(self, club: str) -> list[Member]:
        now = time.time()
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(ClubMemberRow.person, PersonRow.name, ClubMemberRow.role,
                       ClubMemberRow.seen)
                .join(PersonRow, PersonRow.id == ClubMemberRow.person)
                .where(ClubMemberRow.club == club).order_by(ClubMemberRow.joined))).all()
        return [Member(id=p, name=n, role=r, online=now - s < ONLINE_SECONDS)
                for p, n, r, s in rows]

    async def names(self, persons: set[str]) -> dict[str, str]:
        """The display names of persons (former members in a ledger too)."""
        if not persons:
            return {}
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(PersonRow.id, PersonRow.name).where(
                PersonRow.id.in_(sorted(persons))))).all()
        return {p: n for p, n in rows}

    async def persons_in(self, room: str, names: list[str]) -> set[str]:
        """The persons who hold seats named ``names`` in a room (those with an
        identity)."""
        from laizi.server.storage import MemberRow

        if not names:
            return set()
        async with self.store.engine.connect() as conn:
            return {p for p in (await conn.execute(select(MemberRow.person_id).where(
                MemberRow.room == room, MemberRow.name.in_(names)))).scalars() if p}

    async def set_role(self, club: str, person: str, role: str | None) -> None:
        """Make a member a manager or a member, or (``None``) remove them; the last
        manager may not go (a club always has one)."""
        current = await self.role(club, person)
        if current is None:
            raise TableError("that person is not a member", code=ErrorCode.TABLE_RULE)
        managers = [m for m in await self.members(club) if m["role"] == "manager"]
        if current == "manager" and role != "manager" and len(managers) == 1:
            raise TableError("a club keeps at least one manager: make another first",
                             code=ErrorCode.TABLE_RULE)
        async with self.store.engine.begin() as conn:
            where = (ClubMemberRow.club == club, ClubMemberRow.person == person)
            if role is None:
                await conn.execute(delete(ClubMemberRow).where(*where))
            else:
                await conn.execute(update(ClubMemberRow).where(*where).values(role=role))

    async def update_settings(self, club: str, name: object, settings: object) -> None:
        values: dict[str, str] = {}
        if name is not None:
            values["name"] = _club_name(name)
        if settings is not None:
            values["settings"] = json.dumps(check_club_settings(settings))
        if values:
            async with self.store.engine.begin() as conn:
                await conn.execute(update(ClubRow).where(ClubRow.id == club).values(**values))

    async def add_room(self, club: str, room: str) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(ClubRoomRow).values(
                room=room, club=club, created=time.time()))

    async def club_of_room(self, room: str) -> str | None:
        async with self.store.engine.connect() as conn:
            return (await conn.execute(select(ClubRoomRow.club).where(
                ClubRoomRow.room == room))).scalar()

    async def may_join(self, room: str, person: str | None) -> None:
        """A room of a club takes its members only: ``members_only`` for anybody else
        (a guest without an identity too)."""
        club = await self.club_of_room(room)
        if club is None:
            return
        if person is None or await self.role(club, person) is None:
            raise TableError("this room is for the members of its club only",
                             code=ErrorCode.MEMBERS_ONLY)

    async def rooms(self, club: str, *, live: bool) -> list[tuple[str, str, str]]:
        """(code, variant, status) of the club's rooms, live ones or all, oldest first."""
        from laizi.server.storage import RoomRow

        q = (select(RoomRow.code, RoomRow.variant, RoomRow.status)
             .join(ClubRoomRow, ClubRoomRow.room == RoomRow.code)
             .where(ClubRoomRow.club == club).order_by(ClubRoomRow.created))
        if live:
            q = q.where(RoomRow.status != "over")
        async with self.store.engine.connect() as conn:
            return [(c, v, s) for c, v, s in (await conn.execute(q)).all()]
