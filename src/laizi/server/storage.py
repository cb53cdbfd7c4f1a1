"""Storage of the hall through SQLAlchemy 2 (async): SQLite by default, PostgreSQL by URL.

The schema (migrated by Alembic, ``laizi/server/migrations``, when there is something to
migrate: :mod:`laizi.server.schema`):

* ``rooms`` — one row a room: its code, variant, settings (JSON), the table secret (hex;
  never sent to a client before the table closes), status and times;
* ``members`` — the people of a room: their seat token, name, role and person
  (``person_id``: :mod:`laizi.server.people`, which has the tables of people);
* ``log_lines`` — the room's table log, one row a line, numbered from 0: the truth a room
  is rebuilt from after a restart (``Table.from_log``);
* ``hands`` — every finished hand's ``hand_end`` line, for records and 战绩.

Every accepted action is a ``log_lines`` row written (and committed) before the action is
acknowledged or shown to anybody.

The rooms' log lines go through one group-commit writer. On SQLite it runs on a thread of
its own with a synchronous connection (one hand-over a batch): through aiosqlite every
call of a batch (cursor, insert, close, commit, the pool's reset) is a hand-over to its
thread and back, and they cost the hall half its CPU (1.07 ms of CPU a one-line commit,
against 0.27 ms).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypedDict, cast

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection as SyncConnection
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import Executable

from laizi.server.ledgers import shown_ledger, shown_ledgers
from laizi.server.schema import bring_up_to_date

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
    person_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The person who created or joined with this token (:mod:`laizi.server.people`);
    NULL for a guest that sent only a name."""


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


class Played(TypedDict):
    """A room of a person's 战绩 (:meth:`Store.history`)."""

    room: str
    variant: str
    status: str
    updated: float
    name: str
    """The name the person played under there."""
    hands: int
    ledger: dict[str, int]
    score: int


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
        kwargs: dict[str, dict[str, int]] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        if url.startswith("sqlite"):
            # WAL with synchronous=NORMAL: a commit survives the server process being
            # killed (the acknowledged action is in the WAL); only a power cut may lose
            # the last commits. One fsync a commit would cap the hall at a few hundred
            # actions a second.
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

        self._sqlite = _SqliteWriter(url) if _file_sqlite(url) else None
        self._postgres = _PostgresWriter(url) if make_url(url).drivername == \
            "postgresql+asyncpg" else None
        self._pending: list[tuple[_Write, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.on_batch: Callable[[float], None] | None = None
        """Told each group commit's seconds (the hall's metrics)."""

    async def setup(self) -> None:
        """Bring the schema to the newest version (:mod:`laizi.server.schema`, on a sync
        connection)."""
        database = make_url(self.url).database
        if self.engine.dialect.name == "sqlite" and database and database != ":memory:":
            # Processes that start together on one new SQLite file (--workers) would each
            # create the tables ("table rooms already exists"): they take turns, by an
            # advisory lock on the file's folder. Not on the file itself: closing any
            # descriptor of the database drops this process's SQLite (fcntl) locks on it.
            loop = asyncio.get_running_loop()
            held = await loop.run_in_executor(None, _lock_folder, database)
            try:
                await self._migrate()
            finally:
                os.close(held)  # closing the folder's descriptor releases its lock
            return
        await self._migrate()

    async def _migrate(self) -> None:
        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # Processes that start together (--workers, several machines) migrate one
                # at a time; the lock ends with this transaction.
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": _MIGRATION_LOCK})
            await conn.run_sync(bring_up_to_date, Base.metadata)

    async def ping(self) -> None:
        """Raises unless the database answers."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
        if self._sqlite is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._sqlite.close)
        if self._postgres is not None:
            await self._postgres.close()
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

    async def add_member(self, token: str, room: str, name: str, role: str,
                         person: str | None = None) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(insert(MemberRow).values(
                token=token, room=room, name=name, role=role, created=time.time(),
                person_id=person))

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
                started = time.perf_counter()
                await self._commit([item for item, _ in batch])
                if self.on_batch is not None:
                    self.on_batch(time.perf_counter() - started)
            except Exception:
                # One bad write must not fail the others: write them one by one.
                for item, done in batch:
                    try:
                        await self._commit([item])
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

    async def _commit(self, writes: Sequence[_Write]) -> None:
        """Writes in one transaction, committed when this returns."""
        if self._sqlite is not None:
            await self._sqlite.commit(writes)
            return
        if self._postgres is not None:
            await self._postgres.commit(writes)
            return
        async with self.engine.begin() as conn:
            for statement, rows in _statements(writes):
                await conn.execute(statement, rows or None)

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
        """Every finished hand's ``hand_end`` line (no wall), its ledger as people are
        shown it (:func:`laizi.server.ledgers.shown_ledger`: no 0 of a bot that left
        before any hand); the stored lines keep the whole ledger."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(HandRow.end).where(HandRow.room == code)
                                      .order_by(HandRow.number))
            return shown_ledgers(json.loads(e) for (e,) in rows)

    async def history(self, person: str) -> list[Played]:
        """战绩: the rooms the person (``members.person_id``, :mod:`laizi.server.people`)
        played in, newest first, with the name they played under and the ledger of each
        as people are shown it (:func:`laizi.server.ledgers.shown_ledger`)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(RoomRow.code, RoomRow.variant, RoomRow.status, RoomRow.updated,
                       MemberRow.name)
                .join(MemberRow, MemberRow.room == RoomRow.code)
                .where(MemberRow.person_id == person, MemberRow.role == "player")
                .order_by(RoomRow.updated.desc()).limit(100))).all()
            out: list[Played] = []
            for code, variant, status, updated, name in rows:
                last = (await conn.execute(
                    select(HandRow.end).where(HandRow.room == code)
                    .order_by(HandRow.number.desc()).limit(1))).scalar()
                end = json.loads(last) if last else {}
                ledger = end.get("ledger", {})
                hands = end["number"] + 1 if last else 0
                if any(not v and p not in end.get("net", {}) for p, v in ledger.items()):
                    # A 0 of someone not at the last hand: were they at an earlier one?
                    nets = (await conn.execute(
                        select(HandRow.end).where(HandRow.room == code))).scalars().all()
                    ledger = shown_ledger(ledger, (p for e in nets
                                                   for p in json.loads(e).get("net", {})))
                out.append(Played(room=code, variant=variant, status=status,
                                   updated=updated, name=name, hands=hands, ledger=ledger,
                                   score=ledger.get(name, 0)))
        return out


_INSERT_LINES = insert(cast(Table, LogLineRow.__table__))
_INSERT_HANDS = insert(cast(Table, HandRow.__table__))


@dataclass(frozen=True, slots=True)
class _Write:
    room: str
    first: int
    lines: tuple[str, ...]
    hands: tuple[tuple[int, str], ...]
    status: str | None
    settings: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class _Batch:
    """The rows of a batch of writes, for either writer."""

    lines: list[tuple[str, int, str]]
    """(room, n, line) of every line."""
    hands: list[tuple[str, int, str]]
    """(room, number, end) of every finished hand."""
    rooms: dict[str, tuple[str | None, str | None]]
    """The new (status, settings JSON) of each room that has one (``None``: unchanged),
    its writes merged in order, a later write winning: one row a room, as PostgreSQL's
    ``UPDATE … FROM`` needs (of several it would apply any one)."""
    updated: float


def _batch(writes: Sequence[_Write]) -> _Batch:
    rooms: dict[str, tuple[str | None, str | None]] = {}
    for w in writes:
        if w.status is None and w.settings is None:
            continue
        status, settings = rooms.get(w.room, (None, None))
        rooms[w.room] = (w.status if w.status is not None else status,
                         json.dumps(w.settings) if w.settings is not None else settings)
    return _Batch(
        lines=[(w.room, w.first + i, line) for w in writes for i, line in enumerate(w.lines)],
        hands=[(w.room, n, end) for w in writes for n, end in w.hands],
        rooms=rooms, updated=time.time())


def _statements(writes: Sequence[_Write]
                ) -> list[tuple[Executable, list[dict[str, object]]]]:
    """Every write of a batch as statements with their rows: one insert of all lines, one
    of all hands, and an update of each room whose status or settings changed."""
    b = _batch(writes)
    out: list[tuple[Executable, list[dict[str, object]]]] = []
    # Core inserts on the tables: the ORM's bulk insert path costs more than the SQL.
    if b.lines:
        out.append((_INSERT_LINES, [{"room": r, "n": n, "line": x} for r, n, x in b.lines]))
    if b.hands:
        out.append((_INSERT_HANDS, [{"room": r, "number": n, "end": e}
                                    for r, n, e in b.hands]))
    for code, (status, settings) in b.rooms.items():
        values: dict[str, object] = {"updated": b.updated}
        if status is not None:
            values["status"] = status
        if settings is not None:
            values["settings"] = settings
        out.append((update(RoomRow).where(RoomRow.code == code).values(**values), []))
    return out


def _columns(rows: Sequence[tuple[object, ...]], width: int) -> list[list[object]]:
    """Rows as columns (asyncpg takes each column as one array)."""
    return [[row[i] for row in rows] for i in range(width)]


def _file_sqlite(url: str) -> bool:
    """A SQLite database in a file (an in-memory one lives in one connection only)."""
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "",
                                                                             ":memory:")


class _PostgresWriter:
    """The log writer of a PostgreSQL hall: an asyncpg connection of its own and one
    statement a batch. A statement is a transaction by itself, so the lines, the hands
    and the rooms' new status commit together or not at all, in one round trip (through
    the async engine a batch was BEGIN, INSERT, COMMIT and the pool: 0.84 ms of CPU
    against 0.14 ms)."""

    SQL = """
WITH new_lines AS (
    INSERT INTO log_lines (room, n, line)
    SELECT * FROM unnest($1::text[], $2::int[], $3::text[])
), new_hands AS (
    INSERT INTO hands (room, number, "end")
    SELECT * FROM unnest($4::text[], $5::int[], $6::text[])
)
UPDATE rooms SET status = COALESCE(u.status, rooms.status),
                 settings = COALESCE(u.settings, rooms.settings), updated = u.updated
FROM unnest($7::text[], $8::text[], $9::text[], $10::float8[])
     AS u(code, status, settings, updated)
WHERE rooms.code = u.code
"""

    def __init__(self, url: str) -> None:
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(
            hide_password=False)
        self.conn: Any = None

    async def commit(self, writes: Sequence[_Write]) -> None:
        import asyncpg

        b = _batch(writes)
        if self.conn is None or self.conn.is_closed():
            self.conn = await asyncpg.connect(self.dsn)
        try:
            rooms = [(code, st, se, b.updated) for code, (st, se) in b.rooms.items()]
            await self.conn.execute(self.SQL, *_columns(b.lines, 3), *_columns(b.hands, 3),
                                    *_columns(rooms, 4))
        except (OSError, asyncpg.InterfaceError, asyncpg.ConnectionDoesNotExistError):
            await self.close()  # the next batch connects again
            raise

    async def close(self) -> None:
        if self.conn is not None:
            conn, self.conn = self.conn, None
            with contextlib.suppress(Exception):
                await conn.close(timeout=5)


class _SqliteWriter:
    """The log writer of a SQLite hall: a synchronous connection (the standard library's
    driver) used only on a thread of its own, one transaction a batch."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(make_url(url).set(drivername="sqlite"),
                                    connect_args={"timeout": 30})
        event.listen(self.engine, "connect", _sqlite_pragmas)
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="laizi-sqlite-writer")
        self.conn: SyncConnection | None = None

    async def commit(self, writes: Sequence[_Write]) -> None:
        await asyncio.get_running_loop().run_in_executor(self.thread, self._commit, writes)

    def _commit(self, writes: Sequence[_Write]) -> None:
        if self.conn is None:
            self.conn = self.engine.connect()
        with self.conn.begin():
            for statement, rows in _statements(writes):
                self.conn.execute(statement, rows or None)

    def close(self) -> None:
        """Close the connection on its own thread, then the thread and the engine."""
        def close_conn() -> None:
            if self.conn is not None:
                self.conn.close()
                self.conn = None
        self.thread.submit(close_conn).result()
        self.thread.shutdown(wait=True)
        self.engine.dispose()


class _Cursor(Protocol):
    def execute(self, sql: str) -> object: ...

    def close(self) -> object: ...


class _DBAPIConnection(Protocol):
    """A DB-API connection (the standard library's sqlite3, or aiosqlite's adapter)."""

    def cursor(self) -> _Cursor: ...


def _sqlite_pragmas(dbapi_connection: _DBAPIConnection, record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _lock_folder(path: str) -> int:
    """The folder of the file at ``path``, opened and locked for this process alone (an
    flock) until the returned descriptor is closed."""
    held = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)
    return held
