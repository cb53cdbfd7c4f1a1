"""People of the hall: an identity without e-mail or phone number (docs/hall.md,
"People").

A person is a random id, a display name (names repeat; ids do not) and one or more
**device secrets**: 256 bits from :mod:`secrets`, given to a device once, kept by it
(the browser's localStorage) and sent as ``X-Laizi-Person: ID.SECRET``. The hall
stores only the SHA-256 of each secret (a 256-bit random secret needs no slow hash:
nobody can search its space), so a copy of the database lets nobody act as anybody.

A person may ask for a **recovery code** (恢复码): 20 characters of Crockford base32
(100 bits) shown once, stored hashed; a new one replaces the old. Typed on another
device it gives that device a secret of its own for the same person. A device may also
make a **device link** (``/me/link/TOKEN``, shown as a QR code): single use, for
:data:`LINK_SECONDS`, it gives the device that opens it a secret of its own.

Tables (migration 0004): ``persons`` (id, name, recovery hash, created),
``person_devices`` (secret hash, person, created, last used) and ``person_links``
(token hash, person, expiry); ``members.person_id`` ties a room's seat token to the
person who created or joined with it (NULL: a client that sent only a name, a guest).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Float, ForeignKey, String, delete, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from laizi.errors import ErrorCode, TableError
from laizi.server.storage import Base, MemberRow, Store

__all__ = ["CODE_ALPHABET", "LINK_SECONDS", "PERSON_HEADER", "Credential", "People",
           "PersonDeviceRow", "PersonLinkRow", "PersonRow", "format_code", "normalize_code"]

PERSON_HEADER = "x-laizi-person"
"""The request header of a device's credential, ``ID.SECRET``."""
LINK_SECONDS = 600.0
"""How long a device link (add another device) stays valid: ten minutes."""
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: no I, L, O or U, so a code read aloud or written by hand is
not mistaken (:func:`normalize_code` reads I and L as 1, O as 0)."""
CODE_GROUPS, CODE_GROUP = 4, 5
"""A recovery code: 4 groups of 5 characters, 100 bits."""
MAX_DEVICES = 20
"""Devices a person may hold at once; a new one beyond drops the longest unused."""


class PersonRow(Base):
    __tablename__ = "persons"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    recovery: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    created: Mapped[float] = mapped_column(Float)


class PersonDeviceRow(Base):
    __tablename__ = "person_devices"

    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    person: Mapped[str] = mapped_column(ForeignKey("persons.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    used: Mapped[float] = mapped_column(Float)


class PersonLinkRow(Base):
    __tablename__ = "person_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    person: Mapped[str] = mapped_column(ForeignKey("persons.id"), index=True)
    expires: Mapped[float] = mapped_column(Float)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


DEVICE_ID_CHARS = 16
"""A device's public id: 16 hex digits of a hash of its secret's stored hash."""


def device_id(secret_hash: str) -> str:
    """The public id of a device (shown in its person's device list, named to drop
    it): derived from the stored hash, so it tells nothing of the secret and needs no
    column of its own."""
    return hashlib.sha256(b"device:" + secret_hash.encode()).hexdigest()[:DEVICE_ID_CHARS]


def _refused(what: str) -> TableError:
    return TableError(what, code=ErrorCode.UNKNOWN_PERSON)


def format_code(raw: str) -> str:
    """``ABCDE-FGHJK-…``: a normalized code in its printed groups."""
    return "-".join(raw[i:i + CODE_GROUP] for i in range(0, len(raw), CODE_GROUP))


def normalize_code(text: object) -> str:
    """A recovery code as typed (any case, spaces or dashes, O for 0, I / L for 1) in
    its stored form; a :class:`TableError` when it cannot be one."""
    if not isinstance(text, str) or len(text) > 64:
        raise _refused("not a recovery code")
    raw = "".join(text.split()).replace("-", "").upper()
    raw = raw.translate(str.maketrans("OIL", "011"))
    if len(raw) != CODE_GROUPS * CODE_GROUP or any(c not in CODE_ALPHABET for c in raw):
        raise _refused("not a recovery code")
    return raw


@dataclass(frozen=True, slots=True)
class Credential:
    """A device's credential: what ``X-Laizi-Person`` carries, given once."""

    person: str
    name: str
    secret: str

    @property
    def header(self) -> str:
        return f"{self.person}.{self.secret}"

    def to_json(self) -> dict[str, str]:
        return {"id": self.person, "name": self.name, "credential": self.header}


class People:
    """The hall's people, on its store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, name: str) -> Credential:
        """A new person named ``name`` (checked by the caller) with its first device."""
        person = secrets.token_hex(16)
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(PersonRow).values(
                id=person, name=name, recovery=None, created=time.time()))
        return await self._new_device(person, name)

    async def _new_device(self, person: str, name: str) -> Credential:
        secret = secrets.token_urlsafe(32)  # 256 bits
        now = time.time()
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(PersonDeviceRow).values(
                secret_hash=_digest(secret), person=person, created=now, used=now))
            held = (await conn.execute(
                select(PersonDeviceRow.secret_hash).where(PersonDeviceRow.person == person)
                .order_by(PersonDeviceRow.used.desc()))).scalars().all()
            if len(held) > MAX_DEVICES:
                await conn.execute(delete(PersonDeviceRow).where(
                    PersonDeviceRow.secret_hash.in_(held[MAX_DEVICES:])))
        return Credential(person, name, secret)

    async def authenticate(self, header: str) -> tuple[str, str]:
        """(person id, name) of a credential ``ID.SECRET``; an ``unknown_person``
        :class:`TableError` for anything else (a forged, altered or revoked one). The
        secret's hash is compared with each of the person's in constant time."""
        person, dot, secret = header.strip().partition(".")
        if not dot or not person or not secret or len(header) > 200:
            raise _refused("not an identity of this hall")
        given = _digest(secret)
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(PersonRow.name).where(PersonRow.id == person))
                   ).first()
            hashes = (await conn.execute(select(PersonDeviceRow.secret_hash).where(
                PersonDeviceRow.person == person))).scalars().all()
        matched = False
        for stored in hashes:  # every one compared: no early exit to time
            matched |= hmac.compare_digest(stored.encode(), given.encode())
        if row is None or not matched:
            raise _refused("not an identity of this hall")
        return person, str(row[0])

    async def rename(self, person: str, name: str) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(update(PersonRow).where(PersonRow.id == person)
                               .values(name=name))

    async def devices(self, person: str) -> tuple[int, bool]:
        """(devices held, whether a recovery code was made)."""
        async with self.store.engine.connect() as conn:
            n = len((await conn.execute(select(PersonDeviceRow.secret_hash).where(
                PersonDeviceRow.person == person))).all())
            code = (await conn.execute(select(PersonRow.recovery).where(
                PersonRow.id == person))).scalar()
        return n, code is not None

    async def device_list(self, person: str, header: str) -> list[dict[str, object]]:
        """The person's devices, oldest first: each with its public ``id``
        (:func:`device_id`), when it was added and whether it is the device of
        ``header`` (the caller's credential, already authenticated)."""
        this = device_id(_digest(header.strip().partition(".")[2]))
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(PersonDeviceRow.secret_hash, PersonDeviceRow.created)
                .where(PersonDeviceRow.person == person)
                .order_by(PersonDeviceRow.created, PersonDeviceRow.secret_hash))).all()
        return [{"id": device_id(h), "created": created, "current": device_id(h) == this}
                for h, created in rows]

    async def drop_device(self, person: str, device: object) -> int:
        """Drop the person's device ``device`` (its public id): its credential is refused
        from now on (a lost or sold phone). Returns the devices left; an
        ``unknown_device`` :class:`TableError` for an id that is not one of the
        person's."""
        if not isinstance(device, str) or len(device) != DEVICE_ID_CHARS:
            raise TableError("not a device of this person", code=ErrorCode.UNKNOWN_DEVICE)
        async with self.store.engine.begin() as conn:
            held = (await conn.execute(select(PersonDeviceRow.secret_hash).where(
                PersonDeviceRow.person == person))).scalars().all()
            drop = [h for h in held if hmac.compare_digest(device_id(h), device)]
            if not drop:
                raise TableError("not a device of this person",
                                 code=ErrorCode.UNKNOWN_DEVICE)
            await conn.execute(delete(PersonDeviceRow).where(
                PersonDeviceRow.person == person, PersonDeviceRow.secret_hash.in_(drop)))
        return len(held) - len(drop)

    async def new_recovery_code(self, person: str) -> str:
        """A new recovery code (printed form), replacing the person's last one."""
        raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUPS * CODE_GROUP))
        async with self.store.engine.begin() as conn:
            await conn.execute(update(PersonRow).where(PersonRow.id == person)
                               .values(recovery=_digest(raw)))
        return format_code(raw)

    async def recover(self, code: object) -> Credential:
        """A new device of the person whose recovery code ``code`` is."""
        digest = _digest(normalize_code(code))
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(PersonRow.id, PersonRow.name, PersonRow.recovery)
                                      .where(PersonRow.recovery == digest))).first()
        if row is None or not hmac.compare_digest(str(row[2]).encode(), digest.encode()):
            raise _refused("no identity has this recovery code")
        return await self._new_device(str(row[0]), str(row[1]))

    async def new_link(self, person: str) -> tuple[str, float]:
        """A device link's token (single use) and when it expires."""
        token = secrets.token_urlsafe(24)
        expires = time.time() + LINK_SECONDS
        async with self.store.engine.begin() as conn:
            await conn.execute(delete(PersonLinkRow).where(
                PersonLinkRow.expires < time.time()))
            await conn.execute(insert(PersonLinkRow).values(
                token_hash=_digest(token), person=person, expires=expires))
        return token, expires

    async def redeem_link(self, token: object) -> Credential:
        """A new device of the person of a live link, which is used up: only the first
        to take it (the delete that removes its row) gets a secret."""
        if not isinstance(token, str) or not 0 < len(token) <= 64:
            raise _refused("not a device link of this hall")
        digest = _digest(token)
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(select(PersonLinkRow.person, PersonLinkRow.expires)
                                      .where(PersonLinkRow.token_hash == digest))).first()
            taken = (await conn.execute(delete(PersonLinkRow).where(
                PersonLinkRow.token_hash == digest))).rowcount
            name = None if row is None else (await conn.execute(
                select(PersonRow.name).where(PersonRow.id == row[0]))).scalar()
        if row is None or taken != 1 or row[1] < time.time() or name is None:
            raise _refused("this device link is used, expired or not of this hall")
        return await self._new_device(str(row[0]), str(name))

    async def tie(self, token: str, person: str) -> None:
        """Record that the seat token ``token`` is the person's (``members.person_id``)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(update(MemberRow).where(MemberRow.token == token)
                               .values(person_id=person))
