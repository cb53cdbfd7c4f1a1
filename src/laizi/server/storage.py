"""Storage of the hall through SQLAlchemy 2 (async): SQLite by default, PostgreSQL by URL.

The schema (migrated by Alembic, ``laizi/server/migrations``):

* ``rooms`` — one row a room: its code, variant, settings (JSON), the table secret (hex;
  never sent to a client before the table closes), status and times;
* ``members`` — the people of a room: their seat token, name and role;
* ``log_lines`` — the room's table log, one row a line, numbered from 0: the truth a room
  is rebuilt from after a restart (``Table.from_log``);
* ``hands`` — every finished hand's ``hand_end`` line, for records and 战绩.

Every accepted action is a ``log_lines`` row written (and committed) before the action is
acknowledged or shown to anybody.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "MemberRow", "RoomRow", "Store", "StoredRoom", "default_url"]

_MIGRATION_LOCK = 0x6C61697A  # "laiz": the advisory lock of the hall's schema migration


class Base(DeclarativeBase):
    metadata = MetaData()


class RoomRow(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    settings: Mapped[str] = mapped_column(Text)
    secret: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="open")
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


class MemberRow(Base):
    __tablename__ = "members"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    name: Mapped[str] = mapped_column(String(64), index=True)
    role: Mapped[str] = mapped_column(String(16))
    created: Mapped[float] = mapped_column(Float)


class LogLineRow(Base):
    __tablename__ = "log_lines"

    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    line: Mapped[str] = mapped_column(Text)


class HandRow(Base):
    __tablename__ = "hands"

    room: Mapped[str] = mapped_column(ForeignKey("rooms.code"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    end: Mapped[str] = mapped_column(Text)


def default_url(path: str | Path = "laizi-hall.db") -> str:
    """The SQLite URL of a file (an absolute path, as aiosqlite wants it)."""
    return f"sqlite+aiosqlite:///{Path(path).resolve()}"


@dataclass(frozen=True, slots=True)
class StoredRoom:
    code: str
    variant: str
    settings: dict[str, Any]
    secret: str
    status: str
    lines: tuple[str, ...]
    members: tuple[tuple[str, str, str], ...]
    """(token, name, role) in the order they came."""


class Store:
    """The hall's database (one :class:`AsyncEngine`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        if url.startswith("sqlite"):
            # WAL with synchronous=NORMAL: a commit survives the server process being
            # killed (the acknowledged action is in the WAL); only a power cut may lose
            # the last commits. One fsync a commit would cap the hall at a few hundred
            # actions a second.
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

        self._pending: list[tuple[_Write, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    async def setup(self) -> None:
        """Migrate the schema to the newest version (Alembic, run on a sync connection)."""
        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # Processes that start together (--workers, several machines) migrate one
                # at a time; the lock ends with this transaction.
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": _MIGRATION_LOCK})
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
        await self.engine.dispose()

    async def create_room(self, code: str, variant: str, settings: dict[str, Any],
                          secret: str, lines: Sequence[str]) -> None:
        now = time.time()
        async with self.engine.begin() as conn:
            await conn.execute(insert(RoomRow).values(
                code=code, variant=variant, settings=json.dumps(settings), secret=secret,
                status="open", created=now, updated=now))
            if lines:
                await conn.execute(insert(LogLineRow), [
                    {"room": code, "n": i, "line": line} for i, line in enumerate(lines)])

    async def add_member(self, token: str, room: str, name: str, role: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(insert(MemberRow).values(
                token=token, room=room, name=name, role=role, created=time.time()))

    async def set_role(self, token: str, role: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(MemberRow).where(MemberRow.token == token)
                               .values(role=role))

    async def append(self, room: str, first: int, lines: Sequence[str],
                     hands: Sequence[tuple[int, str]] = (), status: str | None = None,
                     settings: dict[str, Any] | None = None) -> None:
        """Store log lines ``first``, ``first + 1``, … (and finished hands) of a room; a
        line number stored twice is an error (never applied twice). Returns once the
        lines are committed.

        Writes of every room go through one writer that commits whatever is waiting in
        one transaction (group commit): SQLite has one writer at a time anyway, and this
        keeps many rooms from queueing for its lock one commit at a time."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((_Write(room, first, tuple(lines), tuple(hands), status,
                                     settings), done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all())
        self._wake.set()
        await done

    async def _write_all(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if not batch:
                continue
            try:
                async with self.engine.begin() as conn:
                    await _write(conn, [item for item, _ in batch])
            except Exception:
                # One bad write must not fail the others: write them one by one.
                for item, done in batch:
                    try:
                        async with self.engine.begin() as conn:
                            await _write(conn, [item])
                    except Exception as exc:
                        if not done.done():
                            done.set_exception(exc)
                    else:
                        if not done.done():
                            done.set_result(None)
                continue
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    async def room(self, code: str) -> StoredRoom | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(RoomRow).where(RoomRow.code == code))).first()
            if row is None:
                return None
            lines = (await conn.execute(
                select(LogLineRow.line).where(LogLineRow.room == code)
                .order_by(LogLineRow.n))).scalars().all()
            members = (await conn.execute(
                select(MemberRow.token, MemberRow.name, MemberRow.role)
                .where(MemberRow.room == code).order_by(MemberRow.created))).all()
        return StoredRoom(row.code, row.variant, json.loads(row.settings), row.secret,
                          row.status, tuple(lines), tuple((t, n, r) for t, n, r in members))

    async def live_rooms(self) -> list[str]:
        """Codes of the rooms not finished (to resume after a restart)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(RoomRow.code).where(RoomRow.status != "over"))
            return [r for (r,) in rows]

    async def hands(self, code: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(HandRow.end).where(HandRow.room == code)
                                      .order_by(HandRow.number))
            return [json.loads(e) for (e,) in rows]

    async def history(self, name: str) -> list[dict[str, Any]]:
        """战绩: the rooms ``name`` played in, newest first, with the ledger of each."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(RoomRow.code, RoomRow.variant, RoomRow.status, RoomRow.updated)
                .join(MemberRow, MemberRow.room == RoomRow.code)
                .where(MemberRow.name == name, MemberRow.role == "player")
                .order_by(RoomRow.updated.desc()).limit(100))).all()
            out = []
            for code, variant, status, updated in rows:
                last = (await conn.execute(
                    select(HandRow.end).where(HandRow.room == code)
                    .order_by(HandRow.number.desc()).limit(1))).scalar()
                ledger = json.loads(last)["ledger"] if last else {}
                hands = json.loads(last)["number"] + 1 if last else 0
                out.append({"room": code, "variant": variant, "status": status,
                            "updated": updated, "hands": hands, "ledger": ledger,
                            "score": ledger.get(name, 0)})
        return out


@dataclass(frozen=True, slots=True)
class _Write:
    room: str
    first: int
    lines: tuple[str, ...]
    hands: tuple[tuple[int, str], ...]
    status: str | None
    settings: dict[str, Any] | None


async def _write(conn: Any, writes: Sequence[_Write]) -> None:
    """Every write of a batch: one insert of all lines, one of all hands, and the rooms
    whose status or settings changed."""
    lines = [{"room": w.room, "n": w.first + i, "line": line}
             for w in writes for i, line in enumerate(w.lines)]
    if lines:
        await conn.execute(insert(LogLineRow), lines)
    hands = [{"room": w.room, "number": n, "end": end} for w in writes for n, end in w.hands]
    if hands:
        await conn.execute(insert(HandRow), hands)
    for w in writes:
        if w.status is None and w.settings is None:
            continue
        values: dict[str, Any] = {"updated": time.time()}
        if w.status is not None:
            values["status"] = w.status
        if w.settings is not None:
            values["settings"] = json.dumps(w.settings)
        await conn.execute(update(RoomRow).where(RoomRow.code == w.room).values(**values))


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _upgrade(sync_conn: Any) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")
