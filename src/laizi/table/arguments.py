"""The checks of a table's arguments: untrusted input refused with a typed error.

:class:`~laizi.table.table.Table` takes its variant's options as JSON, people's names, a
dealer, a length, a seed or a secret, from callers as far as a browser; each is checked
here, in the order the table checks them, and refused with a
:class:`~laizi.errors.TableError` that names it (nothing is built).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import laizi.table.deals as deals
from laizi.engine.variant import Variant
from laizi.errors import ErrorCode, LaiziError, LogError, TableError
from laizi.table.session import Seating

__all__ = ["NAME_MAX", "check_dealer", "check_person", "log_secret", "read_max_hands",
           "read_options", "read_streams", "seating_of", "table_secret"]

NAME_MAX = 32
"""The longest name of a person at a table."""


def check_person(person: object) -> str:
    """``person`` if it is a name: 1-32 printable characters, not only spaces."""
    if not isinstance(person, str) or not person.strip() or len(person) > NAME_MAX \
            or not person.isprintable():
        raise TableError(f"a person's name is 1-{NAME_MAX} printable characters, "
                         f"got {person!r}", code=ErrorCode.MALFORMED)
    return person


def read_options(v: Variant, options: object) -> Any:
    """The variant's options: its defaults for ``None``, read from JSON for a mapping,
    else taken as they are (an options object)."""
    if options is None:
        return v.default_options()
    if isinstance(options, Mapping):
        try:
            return v.options_from_json(dict(options))
        except (TypeError, ValueError) as exc:
            if isinstance(exc, LaiziError):
                raise
            raise TableError(f"bad {v.id} options: {exc}", code=ErrorCode.MALFORMED
                             ) from None
    return options


def check_dealer(v: Variant, dealer: object) -> int:
    n = v.seats
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise TableError(f"dealer {dealer!r} is not a seat of {v.id} (0-{n - 1})",
                         code=ErrorCode.NO_SUCH_SEAT)
    return dealer


def seating_of(v: Variant, people: Sequence[str] | None, max_people: int
               ) -> tuple[Seating, list[str]]:
    """The first seating (people at seats 0, 1, … in order, the rest waiting; ``P1``…
    for ``None``) and the people."""
    n = v.seats
    if people is None:
        people = [f"P{i + 1}" for i in range(n)]
    names = [check_person(p) for p in people]
    if len(set(names)) != len(names):
        raise TableError(f"a person is listed twice: {names!r}")
    if len(names) > max_people:
        raise TableError(f"{v.id} seats at most {max_people} people, got {len(names)}")
    seats: list[str | None] = [*names[:n], *[None] * (n - min(n, len(names)))]
    return Seating(tuple(seats), tuple(names[n:])), names


def read_max_hands(max_hands: object) -> int | None:
    if max_hands is not None and (isinstance(max_hands, bool)
                                  or not isinstance(max_hands, int) or max_hands < 1):
        raise TableError(f"max_hands must be a positive int, got {max_hands!r}",
                         code=ErrorCode.MALFORMED)
    return max_hands


def read_streams(streams: object) -> bool:
    if not isinstance(streams, bool):
        raise TableError(f"streams must be true or false, got {streams!r}",
                         code=ErrorCode.MALFORMED)
    return streams


def read_walls(walls: object, seed: int | None) -> list[list[int]] | None:
    """Given walls (one list of tile ids per hand), only with a public seed: an imported
    match's deals are public, like a seed's."""
    if walls is None:
        return None
    if seed is None:
        raise TableError("given walls need a public seed (seed=0)", code=ErrorCode.MALFORMED)
    if not isinstance(walls, Sequence) or not walls or not all(
            isinstance(w, Sequence) and all(type(t) is int for t in w) for w in walls):
        raise TableError("walls must be a non-empty list of lists of tile ids",
                         code=ErrorCode.MALFORMED)
    return [list(w) for w in walls]


def table_secret(seed: int | None, secret: bytes | None) -> bytes:
    """The secret the deals come from: the public seed's, the given one, or a new one."""
    if seed is not None:
        if secret is not None:
            raise TableError("a table has a seed (public) or a secret, not both")
        return deals.seeded_secret(seed)
    out = secret if secret is not None else deals.new_secret()
    deals.secret_hex(out)  # validates
    return out


def log_secret(commitment: object, revealed: str | None, given: bytes | None) -> bytes:
    """The secret of a log's deals: the one its ``close`` line reveals, or ``given`` (a
    server restoring a table in play); it must open the log's ``commitment``."""
    secret = given
    if revealed is not None:
        opened = deals.parse_secret(revealed)
        if given is not None and given != opened:
            raise LogError("the given secret is not the one the log reveals")
        secret = opened
    if secret is None:
        raise LogError("the log's deals need the table secret (not revealed in "
                       "the log and not given)")
    if deals.commitment(secret) != commitment:
        raise LogError("the secret does not open the log's commitment: the deals "
                       "of this log cannot be trusted")
    return secret
