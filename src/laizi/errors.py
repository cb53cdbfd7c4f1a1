"""One typed error family for everything a caller (or a stranger) can get wrong.

Every refusal the engine, the table or a command gives is a :class:`LaiziError`: a
``ValueError`` with a machine-readable :class:`ErrorCode`, the seat and the phase it is
about (when there is one), and a message for people that quotes the input with ``!r``.
A refused action or query never changes any state. ``error.to_json()`` is what a server
sends back.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypedDict

__all__ = [
    "ErrorCode",
    "ErrorJSON",
    "IllegalActionError",
    "LaiziError",
    "LogError",
    "MalformedActionError",
    "OptionsError",
    "StaleVersionError",
    "TableError",
]


class ErrorCode(StrEnum):
    """Why something was refused (stable strings: clients switch on them)."""

    MALFORMED = "malformed"
    """Not a well-typed action or query: wrong JSON types, unknown fields, out of range."""
    UNKNOWN_TYPE = "unknown_type"
    """An action type that no variant of this table has."""
    NO_SUCH_SEAT = "no_such_seat"
    NOT_YOUR_TURN = "not_your_turn"
    NO_DECISION = "no_decision"
    """The seat has nothing to decide now (not asked in this claim window / decision)."""
    ALREADY_ANSWERED = "already_answered"
    ILLEGAL = "illegal"
    """Well formed, the seat's decision, but not among its legal actions."""
    HAND_OVER = "hand_over"
    STALE_VERSION = "stale_version"
    """The action answers a version of the view that is no longer the seat's current one
    (a score-keeping session: another phone entered or took back a hand first; HTTP 409,
    nothing was applied)."""
    NO_HAND = "no_hand"
    """No hand is being played (between hands, or the table is over)."""
    HAND_IN_PROGRESS = "hand_in_progress"
    TABLE_OVER = "table_over"
    TABLE_RULE = "table_rule"
    """A rule of the table: who may join, leave, sit or buy a horse."""
    BAD_LOG = "bad_log"
    """A table log that cannot be rebuilt (or verified) as written."""
    RULES_VERSION = "rules_version"
    """A log written under rules this version of laizi does not play."""
    NOT_YOUR_SEAT = "not_your_seat"
    """The hall: the action is for a seat the sender does not hold."""
    NOT_HOST = "not_host"
    """The hall: only the room's host may do this."""
    PAUSED = "paused"
    UNKNOWN_ROOM = "unknown_room"
    UNKNOWN_TOKEN = "unknown_token"
    STORAGE = "storage"
    """The hall could not store the action; nothing was applied."""
    BAD_OPTION = "bad_option"
    """A table option that the variant does not have, or a value it refuses."""
    TOO_LARGE = "too_large"
    """The hall: a request body (HTTP 413) or message over the hall's size limit."""
    RATE_LIMITED = "rate_limited"
    """The hall: more of something than one person may send (e.g. entropy strings
    between two hands); nothing was applied."""
    FORBIDDEN_ORIGIN = "forbidden_origin"
    """The hall: a browser request from a page of another site (its ``Origin`` or
    ``Referer`` is neither the hall's own address nor an allowed one; HTTP 403, or a
    websocket closed with 4403); nothing was applied."""
    NOT_JSON = "not_json"
    """The hall: a request that changes something must say ``Content-Type:
    application/json`` (HTTP 415); nothing was read."""
    BANNED = "banned"
    """The hall: the name or the address is banned by the hall's operator (the admin
    page; HTTP 403); nothing was applied."""
    NOT_ADMIN = "not_admin"
    """The hall: an admin request without the admin token (HTTP 401)."""
    KICKED = "kicked"
    """The hall: the host removed this person from the room (踢出): their seat token is
    refused (HTTP 403; a websocket closed with 4410) and their name may not join it
    again."""
    ROOM_LOCKED = "room_locked"
    """The hall: the host locked the room (锁定房间): no new player or spectator may join
    (HTTP 403); its members are not affected."""
    UNKNOWN_PERSON = "unknown_person"
    """The hall: an identity credential (``X-Laizi-Person``), a recovery code or a
    device link that is not one the hall gave, or no longer valid (HTTP 401)."""
    UNKNOWN_DEVICE = "unknown_device"
    """The hall: dropping a device (移除设备) that is not one of the person's (HTTP 404);
    nothing was dropped."""
    SCORE_MEMBERS_ONLY = "score_members_only"
    """The hall: only a member of the score-keeping session (who joined it by its link)
    may enter or take back a hand, or show its link; or a join with a secret that is not
    the session's (HTTP 403); nothing was applied."""
    SESSION_CLOSED = "session_closed"
    """The hall: the score-keeping session was closed (结束并记入账本: its hands are in
    its club's ledger): no hand may be entered or taken back any more (HTTP 409);
    nothing was applied."""
    UNKNOWN_CLUB = "unknown_club"
    """The hall: no club (亲友圈) has this id or invite code (HTTP 404)."""
    NOT_CLUB_MEMBER = "not_club_member"
    """The hall: only a member of the club may see or do this — its page, its rooms, its
    ledger, a member's 战绩 (HTTP 403)."""
    NOT_CLUB_MANAGER = "not_club_manager"
    """The hall: only a manager of the club (管理员) may do this (HTTP 403)."""
    MEMBERS_ONLY = "members_only"
    """The hall: the room belongs to a club and takes its members only; a stranger with
    the room's code is refused (HTTP 403)."""


class ErrorJSON(TypedDict):
    code: str
    message: str
    seat: int | None
    phase: str | None


class LaiziError(ValueError):
    """The base of the family: ``code``, ``seat`` and ``phase`` say what and where."""

    default_code = ErrorCode.ILLEGAL

    def __init__(self, message: str, *, code: ErrorCode | None = None,
                 seat: int | None = None, phase: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code if code is not None else self.default_code
        self.seat = seat
        self.phase = phase

    def to_json(self) -> ErrorJSON:
        return {"code": self.code.value, "message": self.message, "seat": self.seat,
                "phase": self.phase}


class MalformedActionError(LaiziError):
    """The input is not a well-typed action or query (nothing was looked up)."""

    default_code = ErrorCode.MALFORMED


class IllegalActionError(LaiziError):
    """An action the rules do not allow now; the message names the rule broken.

    The game state is left untouched when this is raised.
    """

    default_code = ErrorCode.ILLEGAL


class StaleVersionError(LaiziError):
    """The action answers an older view than the seat's current one."""

    default_code = ErrorCode.STALE_VERSION


class TableError(LaiziError):
    """A rule of the table (sessions, people, hands) was broken."""

    default_code = ErrorCode.TABLE_RULE


class LogError(LaiziError):
    """A table or hand log that cannot be rebuilt or verified as written."""

    default_code = ErrorCode.BAD_LOG


class OptionsError(LaiziError):
    """A table option (``--option k=v``) the variant does not have, or a value it refuses."""

    default_code = ErrorCode.BAD_OPTION
