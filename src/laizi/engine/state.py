"""The state of one hand, typed once: what a variant's hooks read and what a copy holds.

:class:`HandState` is every fact of a hand in play (the wall, the hands, the melds, whose
turn, the open decision window, the log) as one slotted dataclass. The engine's
:class:`~laizi.engine.game.Game` is a ``HandState`` that also knows its rules and moves
itself on; the variants' hooks (:class:`~laizi.engine.variant.Variant`) are typed against
``HandState``, so the rules interface and the game do not import each other.

:meth:`HandState.copy` is the cheap independent copy the search's sample worlds play on
(:mod:`laizi.bots.determinize`), and :meth:`HandState.posed_win` asks whether a tile would
win for a seat without writing into the state.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.melds import Meld
from laizi.core.records import SELF_DRAW, HandRecord, SeatRecord
from laizi.engine.actions import Action
from laizi.settlement import Payment
from laizi.vocab import Phase, TurnStart

__all__ = ["HandState"]

_TURN: Final = Phase.TURN
_OVER: Final = Phase.OVER


@dataclass(slots=True, eq=False)
class HandState:
    """One hand's state (see :mod:`laizi.engine.game` for the phases). Every field is
    plain data; ``extra`` belongs to the variant (JSON), ``context`` is the hand's place
    in a session. Read it in hooks; change it only through the primitives below (and
    ``extra``), as the variant's documented duties say."""

    options: Any = None
    """The table options (the variant's frozen dataclass)."""
    seed: int | None = 0
    n: int = 4
    dealer: int = 0
    scores: list[int] = field(default_factory=list)
    wall: list[int] = field(default_factory=list)
    head: int = 0
    tail: int = 0
    reserve: int = 0
    seat_streams: list[list[int]] | None = None
    """With per-seat streams (:meth:`Game.split_wall`): each seat's next tiles, the next
    one last. Together they hold exactly the tiles of ``wall[head:tail]``."""
    own_walls: bool = False
    """Botzone's per-seat walls (the ``mcr`` profile ``botzone``): every draw, a kong's
    replacement too, takes the seat's own next tile, and a seat whose own wall is empty
    cannot draw: the hand is drawn (荒庄)."""
    flower_set: frozenset[int] = frozenset()
    hands: list[list[int]] = field(default_factory=list)
    """Concealed tiles per seat, as counts by tile kind."""
    sizes: list[int] = field(default_factory=list)
    melds: list[list[Meld]] = field(default_factory=list)
    discards: list[list[int]] = field(default_factory=list)
    flowers: list[list[int]] = field(default_factory=list)
    indicators: list[int] = field(default_factory=list)
    wildcard: int | None = None
    turn: int = 0
    phase: Phase = Phase.TURN
    turn_kind: TurnStart = TurnStart.DEALT
    after_kong: bool = False
    last_tile: int | None = None
    pending: dict[int, tuple[Action, ...]] = field(default_factory=dict)
    responses: dict[int, Action] = field(default_factory=dict)
    passed_win: list[bool] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    """Tiles taken by a win off a discard or a robbed kong (for tile accounting)."""
    extra: JSON = field(default_factory=dict)
    blocked_cache: frozenset[int] | None = None
    """The variant's ``meld_blocked`` set, worked out once per hand by the variant
    (declared here, not set on the fly: a compiled Game has no ``__dict__``)."""
    special_kongs_cache: dict[int, str] | None = None
    """The variant's ``special_kongs`` map, worked out once per hand likewise."""
    context: JSON = field(default_factory=dict)
    """The hand's place in a session, for the variant (JSON; e.g. Taiwan's prevalent
    wind and 连N); written in the ``start`` event so replay sees it."""
    keep_log: bool = True
    """False for throwaway copies (search playouts): the log stops growing and the
    end event is not written, which saves the JSON work; such a game cannot be
    replayed. Everything else (state, legal actions, settlement) is unchanged."""
    suspended: JSON | None = None
    """A draw interrupted by a ``decide`` phase: ``{"seat", "kong"}`` (see resume)."""
    record: HandRecord | None = None
    payments: list[Payment] = field(default_factory=list)
    claim_types: frozenset[str] = frozenset()
    uniform: bool = True
    """Uniform windows (the default): every other seat is asked after every discard and
    every added kong, and every seat in every ``decide`` phase, ``pass`` being the only
    answer of a seat without an option. So the phase, ``to_act`` and the number of
    answers never show who could claim or declare. ``False`` (a bot's private sample
    worlds only) asks just the seats with an option, which is faster."""
    log: list[JSON] = field(default_factory=list)
    """Everything that happened, as JSON events (:mod:`laizi.engine.events`)."""

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        return self.phase == _OVER

    @property
    def live_tiles(self) -> int:
        """Tiles left in the live wall (the reserve included)."""
        return self.tail - self.head

    def concealed(self, seat: int) -> list[int]:
        """The seat's concealed tiles, sorted."""
        return T.from_counts(self.hands[seat])

    def is_open(self, seat: int) -> bool:
        return any(m.is_open for m in self.melds[seat])

    def to_act(self) -> list[int]:
        """Seats that have a decision to make now."""
        phase = self.phase
        if phase == _TURN:
            return [self.turn]
        if phase != _OVER:  # a window: claim, rob or decide
            responses = self.responses
            if not responses:  # a window just opened: everybody asked
                return list(self.pending)
            return [s for s in self.pending if s not in responses]
        return []


    # ------------------------------------------------------------------ per-seat streams

    def split_wall(self) -> None:
        """Deal the live wall ``wall[head:tail]`` out to per-seat streams (分墙), tile by
        tile in order, to the seat that would draw it if nobody claimed (starting after
        :attr:`turn`). From then on an ordinary draw takes the drawing seat's next tile
        (a seat whose stream ran dry takes from the longest one), and a draw from the
        tail (a kong's or a flower's replacement) takes the last tile of the longest
        stream: like the wall's tail, the tile furthest from being drawn, so a
        replacement changes what the seats draw as late as possible.

        Which tile is drawn next never depends on the hidden tiles, so every draw is a
        uniformly random unseen tile, as from a shuffled wall. The wall list keeps the
        remaining tiles (in a different order): each draw first moves its tile to the
        head or the tail. Also used by the search bot (common draws across candidates).
        """
        live = self.wall[self.head:self.tail]
        first = (self.turn + 1) % self.n
        streams: list[list[int]] = [[] for _ in range(self.n)]
        for i, t in enumerate(live):
            streams[(first + i) % self.n].append(t)
        for st in streams:
            st.reverse()
        self.seat_streams = streams
        self.wall = list(self.wall)

    def _seat_stream_tile(self, seat: int) -> int:
        streams = self.seat_streams
        assert streams is not None
        st = streams[seat] if streams[seat] else max(streams, key=len)
        return st.pop()

    def _far_stream_tile(self) -> int:
        streams = self.seat_streams
        assert streams is not None
        return max(streams, key=len).pop(0)

    def _bring(self, x: int, pos: int) -> None:
        """Move a copy of tile ``x`` of the live wall to ``pos`` (the head or the tail)."""
        w = self.wall
        i = w.index(x, self.head, self.tail)
        w[i] = w[pos]
        w[pos] = x

    # ------------------------------------------------------------------ copies

    def copy(self) -> HandState:
        """An independent copy, much cheaper than ``copy.deepcopy``: lists (and lists of
        lists) and dicts are copied, ``extra`` deeply; the wall, which the engine only
        reads, is shared (a state with per-seat streams reorders its wall, so its copy
        gets its own). The copy is of the same class (a game copies as a game)."""
        c = type(self).__new__(type(self))
        self.copy_into(c)
        return c

    def copy_into(self, c: HandState) -> None:
        """Fill ``c`` (a blank object of this class) with copies of this state's fields;
        a subclass with fields of its own extends it."""
        c.options = self.options
        c.seed = self.seed
        c.n = self.n
        c.dealer = self.dealer
        c.scores = list(self.scores)
        c.wall = self.wall if self.seat_streams is None else list(self.wall)
        c.head = self.head
        c.tail = self.tail
        c.reserve = self.reserve
        c.seat_streams = (None if self.seat_streams is None
                          else [list(st) for st in self.seat_streams])
        c.own_walls = self.own_walls
        c.flower_set = self.flower_set
        c.hands = [list(h) for h in self.hands]
        c.sizes = list(self.sizes)
        c.melds = [list(ms) for ms in self.melds]
        c.discards = [list(d) for d in self.discards]
        c.flowers = [list(f) for f in self.flowers]
        c.indicators = list(self.indicators)
        c.wildcard = self.wildcard
        c.turn = self.turn
        c.phase = self.phase
        c.turn_kind = self.turn_kind
        c.after_kong = self.after_kong
        c.last_tile = self.last_tile
        c.pending = dict(self.pending)
        c.responses = dict(self.responses)
        c.passed_win = list(self.passed_win)
        c.taken = list(self.taken)
        c.extra = _copy.deepcopy(self.extra)
        c.blocked_cache = self.blocked_cache
        c.special_kongs_cache = (None if self.special_kongs_cache is None
                                 else dict(self.special_kongs_cache))
        c.context = dict(self.context)
        c.keep_log = self.keep_log
        c.suspended = None if self.suspended is None else dict(self.suspended)
        c.record = self.record
        c.payments = list(self.payments)
        c.claim_types = self.claim_types
        c.uniform = self.uniform
        c.log = list(self.log)

    # ------------------------------------------------------------------ variant primitives
    # What a variant's hooks may do to the hand besides writing ``extra``; the engine's
    # Game implements them.

    def legal_actions(self, seat: object) -> tuple[Action, ...]:
        """Every action ``seat`` may take now."""
        raise NotImplementedError

    def action_types(self) -> frozenset[str]:
        """Every action type of this hand: the engine's and the variant's own."""
        raise NotImplementedError

    def apply(self, action: Action) -> None:
        """Apply one legal action (the only way a hand moves on)."""
        raise NotImplementedError

    def reveal_indicator(self) -> int:
        """Turn the last tile of the tail face up, out of play (for ``Variant.setup``)."""
        raise NotImplementedError

    def ask(self, pending: dict[int, Sequence[Action]]) -> None:
        """Open a ``decide`` phase: ``pending[seat]`` are the actions ``seat`` may answer
        with; :meth:`Variant.resolve` gets the answers."""
        raise NotImplementedError

    def resume(self) -> None:
        """End a ``decide`` phase by going on as before it."""
        raise NotImplementedError

    def move_flower(self, from_seat: int, to_seat: int, flower: int) -> None:
        """Move a set-aside flower between seats (Taiwan 七抢一)."""
        raise NotImplementedError

    def draw_replacement(self, seat: int) -> int | None:
        """Give ``seat`` a replacement from the tail without starting a turn."""
        raise NotImplementedError

    def end_win(self, winners: Sequence[int], how: str, source: int | None, tile: int) -> None:
        """End the hand with a win (for variant actions, e.g. a flower win)."""
        raise NotImplementedError

    def make_record(
        self, winners: Sequence[int], how: str | None, source: int | None, tile: int | None,
        known: Mapping[int, SeatRecord] | None = None
    ) -> HandRecord:
        """The hand record if the hand ended now this way (``known``: seats' records
        already made of this state, see :func:`laizi.engine.reports.hand_record`)."""
        raise NotImplementedError

    def win_refusal(self, seat: int, tile: int, how: str) -> str | None:
        """Why ``seat`` may not win with ``tile`` now by ``how`` (``None``: it may), as the
        variant judges it."""
        raise NotImplementedError

    def posed_win(self, seat: int, hand: list[int], tile: int) -> str | None:
        """Would ``tile`` win for ``seat`` self-drawn into ``hand`` (tile counts, the tile
        included)? The variant's reason if not, ``None`` if it would. Asked of a copy with
        the hand posed: this state is not written."""
        probe = self.copy()
        probe.hands[seat] = hand
        probe.sizes[seat] = sum(hand)
        probe.turn, probe.phase, probe.turn_kind = seat, Phase.TURN, TurnStart.DRAWN
        probe.last_tile, probe.after_kong = tile, False
        return probe.win_refusal(seat, tile, SELF_DRAW)
