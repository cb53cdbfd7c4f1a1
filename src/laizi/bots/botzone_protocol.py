"""The Botzone "Chinese Standard Mahjong" (国标麻将) protocol: laizi's events as the
requests a Botzone bot reads, and its answers as laizi actions.

Written from the protocol's public description (Botzone's wiki, restated in
docs/bots.md, "The Botzone bridge"); no third-party code. Tiles are written in the
``gb`` dialect of :mod:`laizi.tiles` (``W1``-``W9`` 万, ``B1``-``B9`` 饼, ``T1``-``T9``
条, ``F1``-``F4`` 东南西北, ``J1`` 中 ``J2`` 发 ``J3`` 白, ``H1``-``H8`` flowers). A seat's
Botzone id is its wind: ``(seat - dealer) mod 4``.

:class:`Transcript` turns one seat's stream of events (what
:meth:`laizi.table.table.Table.events` shows that seat) into the requests Botzone would
have sent it, and keeps the response of each: the bot's own accepted answer, else what
the seat actually played (read from its next own event), else ``PASS``.
:func:`answer_action` reads an answer into one of the seat's legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from laizi import tiles as T
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    LOGGED_TYPES,
    PASS,
    PUNG,
    WIN,
    WRONG_WIN,
    Action,
)
from laizi.vocab import GameEventType

__all__ = ["ProtocolError", "Transcript", "answer_action", "tile_name"]

_WINDS = "ESWN"


class ProtocolError(Exception):
    """A bot's answer that the protocol cannot read or laizi cannot play; ``kind`` says
    which (``unparsable``, ``illegal``, ``timeout``, ``crash``, ``marker``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def tile_name(t: int) -> str:
    """``t`` as Botzone writes it (the ``gb`` dialect)."""
    return T.name(t, "gb")


def _tile(text: str) -> int:
    try:
        return T.parse_tile(text, "gb")
    except ValueError:
        raise ProtocolError("unparsable", f"not a tile: {text!r}") from None


@dataclass
class Transcript:
    """The requests of one seat's hand, and a response for each but the last."""

    seat: int
    requests: list[str] = field(default_factory=list)
    responses: list[str | None] = field(default_factory=list)
    dealer: int = 0
    quan: int = 0
    hand: list[int] = field(default_factory=list)
    """The seat's tiles until the deal's flowers are replaced (then request 1 says them)."""
    opening: bool = True
    """Still in the deal: flowers replaced before the first turn go in request 1."""
    flowers: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    claims: dict[int, str] = field(default_factory=dict)
    """A seat's chow / pung waiting for its discard: one request says both."""
    after_my_claim: bool = False
    """The last event was this seat's own chow or pung: its turn is the claim's discard."""
    started: bool = False

    def pid(self, seat: int) -> int:
        """The Botzone id of ``seat``: its wind (东 0 … 北 3)."""
        return (seat - self.dealer) % 4

    # ------------------------------------------------------------------ requests

    def _request(self, text: str) -> None:
        if self.responses and self.responses[-1] is None:
            self.responses[-1] = "PASS"  # a request the seat had nothing to say to
        self.requests.append(text)
        self.responses.append(None)

    def _answer(self, text: str) -> None:
        """The seat's own move answers its open request (unless the bot's answer did)."""
        if self.responses and self.responses[-1] is None:
            self.responses[-1] = text

    def _complete(self, claim: str, tile: str) -> None:
        """The seat's discard after its chow / pung completes the claim's response."""
        if self.responses and self.responses[-1] in (None, claim):
            self.responses[-1] = f"{claim} {tile}"

    def record(self, answer: str) -> None:
        """The bot's accepted answer to the last request."""
        if self.responses:
            self.responses[-1] = answer

    def _open(self) -> None:
        """Requests 0 and 1 (id and wind; the hands and flowers), and the dealer's 14th
        tile as its first draw."""
        if not self.opening:
            return
        self.opening = False
        me = self.pid(self.seat)
        self._request(f"0 {me} {self.quan}")
        by_pid = [self.flowers[(self.dealer + p) % 4] for p in range(4)]
        hand = list(self.hand)
        drawn = hand.pop() if len(hand) == 14 else None
        self._request(" ".join(["1", *(str(len(f)) for f in by_pid),
                                *(tile_name(t) for t in sorted(hand)),
                                *(tile_name(t) for f in by_pid for t in f)]))
        if drawn is not None:
            self._request(f"2 {tile_name(drawn)}")

    def feed(self, event: Mapping[str, object]) -> None:
        """Take one event of the seat's stream."""
        kind = event.get("type")
        if kind == GameEventType.START:
            self._start(event)
            return
        if not self.started:
            return
        if kind != GameEventType.ACTION or not event.get("answer"):
            self.after_my_claim = False
        if kind == GameEventType.DEAL:
            hands = event["hands"]
            assert isinstance(hands, list)
            self.hand = [t for t in hands[self.seat] if t is not None]
        elif kind == GameEventType.FLOWER:
            self._flower(event)
        elif kind == GameEventType.DRAW:
            self._draw(event)
        elif kind == GameEventType.ACTION:
            action = event["action"]
            assert isinstance(action, dict)
            self._action(Action.from_json(action, types=LOGGED_TYPES),
                         bool(event.get("answer")))
        elif kind == GameEventType.CLAIM:
            self._claim(event)

    def _start(self, event: Mapping[str, object]) -> None:
        options = event.get("options")
        wind = options.get("prevalent_wind", "E") if isinstance(options, dict) else "E"
        dealer = event.get("dealer", 0)
        self.requests, self.responses, self.hand = [], [], []
        self.opening, self.after_my_claim = True, False
        self.flowers, self.claims = [[], [], [], []], {}
        self.dealer = dealer if isinstance(dealer, int) else 0
        self.quan = _WINDS.index(wind) if wind in _WINDS else 0
        self.started = True

    def _flower(self, event: Mapping[str, object]) -> None:
        seat, tile = event["seat"], event["tile"]
        assert isinstance(seat, int) and isinstance(tile, int)
        if self.opening:
            self.flowers[seat].append(tile)
            if seat == self.seat and tile in self.hand:
                self.hand.remove(tile)
            return
        self._request(f"3 {self.pid(seat)} BUHUA {tile_name(tile)}")

    def _draw(self, event: Mapping[str, object]) -> None:
        seat, tile = event["seat"], event["tile"]
        assert isinstance(seat, int)
        if self.opening and event.get("replacement"):
            if seat == self.seat and isinstance(tile, int):
                self.hand.append(tile)
            return
        self._open()
        if seat == self.seat and isinstance(tile, int):
            self._request(f"2 {tile_name(tile)}")
        else:
            self._request(f"3 {self.pid(seat)} DRAW")

    def _action(self, a: Action, answer: bool) -> None:
        mine = a.seat == self.seat
        if a.type == WRONG_WIN:  # 错和: the caller's HU answers its open request
            self._open()
            if mine:
                self._answer("HU")
            return
        if answer:
            if mine:
                self._answer(_window_text(a))
            return
        self._open()
        p = self.pid(a.seat)
        t = "" if a.tile is None else tile_name(a.tile)
        if a.type == DISCARD:
            claim = self.claims.pop(a.seat, None)
            if mine:
                if claim is None:
                    self._answer(f"PLAY {t}")
                else:
                    self._complete(claim, t)
            self._request(f"3 {p} {claim} {t}" if claim else f"3 {p} PLAY {t}")
        elif a.type == CONCEALED_KONG:
            if mine:
                self._answer(f"GANG {t}")
            self._request(f"3 {p} GANG")
        elif a.type == ADDED_KONG:
            if mine:
                self._answer(f"BUGANG {t}")
            self._request(f"3 {p} BUGANG {t}")
        elif a.type == WIN and mine:
            self._answer("HU")

    def _claim(self, event: Mapping[str, object]) -> None:
        seat, meld = event["seat"], event["meld"]
        assert isinstance(seat, int) and isinstance(meld, dict)
        kind, tiles = meld["kind"], sorted(meld["tiles"])
        if kind == PUNG:
            self.claims[seat] = "PENG"
        elif kind == CHOW:
            self.claims[seat] = f"CHI {tile_name(tiles[1])}"
        else:  # a kong on a discard: said at once, its replacement draw follows
            self._request(f"3 {self.pid(seat)} GANG")
            return
        self.after_my_claim = seat == self.seat

    def finish_opening(self) -> None:
        """Say the opening requests now (the dealer's first turn comes before any event
        that would)."""
        self._open()


def _window_text(a: Action) -> str:
    """A seat's answer in a claim window as Botzone writes it (a claim's discard comes
    with the seat's next discard)."""
    if a.type == PUNG:
        return "PENG"
    if a.type == CHOW:
        return f"CHI {tile_name(sorted(a.tiles)[1])}"
    if a.type == KONG:
        return "GANG"
    if a.type == WIN:
        return "HU"
    return "PASS"


def _one(legal: Sequence[Action], kind: str, tile: int | None, what: str) -> Action:
    for a in legal:
        if a.type == kind and (tile is None or a.tile == tile):
            return a
    raise ProtocolError("illegal", f"{what} is not legal now")


def answer_action(text: str, legal: Sequence[Action], *,
                  wrong_win: bool = False) -> tuple[Action, int | None]:
    """The legal action an answer names, and the discard a ``PENG`` / ``CHI`` answer
    announces (played at the seat's next turn); :class:`ProtocolError` if the answer is
    not one of the protocol's or not legal now. With ``wrong_win`` (the table settles a
    错和: MCR profile=botzone) a ``HU`` that is no win is the seat's ``wrong_win``."""
    words = text.split()
    if not words:
        raise ProtocolError("unparsable", "an empty answer")
    cmd, args = words[0], words[1:]
    sizes = {"PASS": 0, "HU": 0, "PLAY": 1, "BUGANG": 1, "PENG": 1, "CHI": 2}
    if cmd == "GANG":
        if len(args) > 1:
            raise ProtocolError("unparsable", f"bad answer {text!r}")
    elif cmd not in sizes or len(args) != sizes[cmd]:
        raise ProtocolError("unparsable", f"bad answer {text!r}")
    tiles = [_tile(w) for w in args]
    if cmd == "PASS":
        return _one(legal, PASS, None, "PASS"), None
    if cmd == "HU":
        if wrong_win and legal and not any(a.type == WIN for a in legal):
            return Action(WRONG_WIN, legal[0].seat), None  # 错和: −30 / +10, the hand over
        return _one(legal, WIN, None, "HU"), None
    if cmd == "PLAY":
        return _one(legal, DISCARD, tiles[0], text), None
    if cmd == "BUGANG":
        return _one(legal, ADDED_KONG, tiles[0], text), None
    if cmd == "GANG":
        if tiles:
            return _one(legal, CONCEALED_KONG, tiles[0], text), None
        return _one(legal, KONG, None, text), None
    if cmd == "PENG":
        return _one(legal, PUNG, None, text), tiles[0]
    middle = tiles[0]
    for a in legal:
        if a.type == CHOW and sorted(a.tiles)[1] == middle:
            return a, tiles[1]
    raise ProtocolError("illegal", f"{text} is not legal now")
