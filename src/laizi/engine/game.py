"""The game state machine shared by every variant (one hand of mahjong).

A :class:`Game` is created from ``(variant, options, seed, dealer)``; the only way to move
it on is :meth:`Game.apply` with one of :meth:`Game.legal_actions`. Draws, claim
resolution and the end of the hand happen inside the engine. Everything that happens is
appended to :attr:`Game.log` (JSON-serialisable dicts); :func:`laizi.engine.log.replay`
rebuilds the identical state from it.

Phases:

* ``turn`` — :attr:`Game.turn` holds 14 (3n+2) tiles and must act: win (自摸), kong,
  special kong, or discard.
* ``claim`` — after a discard, every seat with an option (win, kong, pung, chow) has a
  pending decision; all answer (``pass`` or a claim) before the engine resolves them by
  priority: win > kong/pung > chow, nearest seat after the discarder first.
* ``rob`` — after an added kong, seats that can win on the added tile decide (抢杠).
* ``decide`` — a variant's own decision (e.g. Taiwan 天听 after the deal, 七抢一 when
  another seat draws the eighth flower): the variant asked some seats
  (:meth:`Game.ask`); when all have answered, :meth:`Variant.resolve` moves the game on.
* ``over`` — the hand has ended; :attr:`Game.record` and :attr:`Game.payments` hold the
  result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Final

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.melds import Meld
from laizi.core.records import (
    DISCARD_WIN,
    ROBBED_KONG,
    SELF_DRAW,
    WRONG_WIN,
    HandRecord,
    SeatRecord,
    record_to_json,
)
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    SPECIAL_KONG,
    TYPES,
    WIN,
    Action,
    check_action,
    short_repr,
)
from laizi.engine.dealing import Dealing
from laizi.engine.events import (
    RULES_VERSION,
    ActionEvent,
    ClaimEvent,
    EndEvent,
    RevealedEvent,
    StartEvent,
)
from laizi.engine.refusals import refusal, wrong_win_refusal
from laizi.engine.registry import get as get_variant
from laizi.engine.replay import replay_into
from laizi.engine.reports import hand_record, seat_view, state_to_json
from laizi.engine.state import HandState
from laizi.engine.variant import Variant
from laizi.engine.windows import PASS_ONLY, discard_window, interned, rob_window, turn_options
from laizi.errors import ErrorCode, LaiziError, MalformedActionError
from laizi.settlement import net
from laizi.vocab import ActionType, Phase, TurnStart

__all__ = ["CLAIM", "CLAIMED", "DECIDE", "OVER", "ROB", "RULES_VERSION", "TURN", "Game",
           "interned"]

TURN: Final = Phase.TURN
CLAIM: Final = Phase.CLAIM
ROB: Final = Phase.ROB
OVER: Final = Phase.OVER
DECIDE: Final = Phase.DECIDE  # a variant's own decision phase (Variant.resolve ends it)
# How the current turn began: it decides whether a self-drawn win or a kong is possible.
DEALT: Final = TurnStart.DEALT
DRAWN: Final = TurnStart.DRAWN
REPLACED: Final = TurnStart.REPLACED
CLAIMED: Final = TurnStart.CLAIMED

_CORE_TURN = frozenset({DISCARD, WIN, CONCEALED_KONG, ADDED_KONG, SPECIAL_KONG})
_CORE_TYPES = frozenset(TYPES)
_WRONG_WIN_TYPES = frozenset({ActionType.WRONG_WIN})


class Game(Dealing):
    """One hand: a :class:`~laizi.engine.state.HandState` with its rules, moved on only by
    :meth:`apply`. Create with ``Game("jingzhou", seed=7)``. (``Game()`` with no variant is
    an empty shell that ``copy.copy`` fills in, not a hand.)

    ``wall`` (tests, puzzles) gives the wall order instead of shuffling by ``seed``: the
    deal takes tiles from its start, the indicator and replacements from its end.

    ``streams`` deals for duplicate play (分墙): after the deal every seat draws from its
    own stream of the live wall (:meth:`split_wall`), so a claim, which skips seats, does
    not change which tiles each seat draws. Every draw is still a uniformly random unseen
    tile: a single hand is a fair hand, only two hands from one seed stay comparable.
    """

    def __init__(
        self,
        variant: Variant | str | None = None,
        options: object = None,
        seed: int | None = 0,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        wall: Sequence[int] | None = None,
        context: JSON | None = None,
        streams: bool = False,
        uniform: bool = True,
    ) -> None:
        if variant is None:
            # An empty shell, not a hand: copy.copy of a compiled Game (mypyc) makes one
            # and then fills in the attributes.
            return
        v = get_variant(variant) if isinstance(variant, str) else variant
        self.variant = v
        if options is None:
            options = v.default_options()
        elif isinstance(options, dict):
            options = v.options_from_json(options)
        self.options = options
        self._options_json = v.options_to_json(options)  # a hand's options never change
        self.seed = seed
        n = v.seats
        self.n = n
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat of {v.id} (0-{n - 1})")
        self.dealer = dealer
        self.scores = list(scores) if scores is not None else [0] * n
        self.wall = self._shuffled_wall(seed, wall)
        self.head = 0
        self.tail = len(self.wall)
        self.reserve = v.reserve(options)
        self.seat_streams = None
        self.own_walls = False
        self.flower_set = v.flower_tiles(options)
        self._empty_hand(n)
        self.turn = dealer
        self.context = dict(context or {})
        self.keep_log = True
        self.claim_types = v.claim_types(options)
        self.uniform = uniform
        self.log = [self._start_event(wall, streams)]
        self._legal: list[tuple[Action, ...] | None] = [None] * n
        self._dealt_flowers: dict[int, list[int]] = {}
        self._deal()
        if streams:
            self.split_wall()
        if self.phase == TURN:
            v.start(self)

    def _empty_hand(self, n: int) -> None:
        """Every seat's tiles and the hand's progress as before the deal."""
        self.hands = [[0] * T.NUM_KINDS for _ in range(n)]
        self.sizes = [0] * n
        self.melds = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.flowers = [[] for _ in range(n)]
        self.indicators = []
        self.wildcard = None
        self.phase = TURN
        self.turn_kind = DEALT
        self.after_kong = False
        self.last_tile = None
        self.pending = {}
        self.responses = {}
        self.passed_win = [False] * n
        self.taken = []
        self.extra = {}
        self.blocked_cache = None
        self.special_kongs_cache = None
        self.suspended = None
        self.record = None
        self.payments = []

    def _start_event(self, wall: Sequence[int] | None, streams: bool) -> JSON:
        return StartEvent(
            RULES_VERSION, self.variant.id, self.variant.options_to_json(self.options),
            self.dealer, list(self.scores), self.seed, None if wall is None else list(wall),
            streams, self.uniform, dict(self.context) if self.context else None).to_json()

    @classmethod
    def from_log(cls, log: Sequence[JSON], *, verify: bool = True) -> Game:
        """The game a log describes, rebuilt by applying its actions again to the hand
        its ``start`` event deals; with ``verify`` the rebuilt log must be ``log`` event
        for event. Any problem is a :class:`~laizi.engine.replay.ReplayError`."""
        return replay_into(cls, log, verify=verify)

    def copy(self) -> Game:
        """An independent copy (:meth:`HandState.copy`), playable on its own."""
        c = Game()
        self.copy_into(c)
        return c

    def copy_into(self, c: HandState) -> None:
        HandState.copy_into(self, c)
        assert isinstance(c, Game)
        c.variant = self.variant
        c._options_json = self._options_json
        c._legal = list(self._legal)
        c._dealt_flowers = {s: list(f) for s, f in self._dealt_flowers.items()}

    def win_refusal(self, seat: int, tile: int, how: str) -> str | None:
        return self.variant.win_refusal(self, seat, tile, how)

    def clear_legal(self) -> None:
        """Forget the cached legal actions: for a state set field by field (the search's
        sample worlds), whose options must be worked out afresh."""
        self._legal = [None] * self.n

    # ------------------------------------------------------------------ queries

    def legal_actions(self, seat: object) -> tuple[Action, ...]:
        """Every action ``seat`` may take now (empty if it has no decision), as a tuple:
        the caller cannot change the engine's cached copy.

        ``seat`` must be an int (not a bool) of this game: else
        :class:`~laizi.errors.MalformedActionError` (``malformed``) or
        :class:`~laizi.errors.LaiziError` (``no_such_seat``), and nothing is touched."""
        if type(seat) is not int or not 0 <= seat < self.n:
            raise self._seat_error(seat, "legal_actions")
        cached = self._legal[seat]
        if cached is None:
            cached = self._legal[seat] = self._compute_legal(seat)
        return cached

    def _seat_error(self, seat: object, where: str) -> LaiziError:
        """The refusal of a seat argument that is not a seat of this game."""
        if type(seat) is not int:
            return MalformedActionError(f"{where}: a seat is an int, not {short_repr(seat)}",
                                        phase=self.phase)
        return LaiziError(f"{where}: no seat {short_repr(seat)} in {self.variant.id} "
                          f"(0-{self.n - 1})", code=ErrorCode.NO_SUCH_SEAT,
                          seat=seat if -2**63 <= seat < 2**63 else None, phase=self.phase)

    def _compute_legal(self, seat: int) -> tuple[Action, ...]:
        phase = self.phase
        if phase == TURN:
            return tuple(turn_options(self, self.variant, seat)) if seat == self.turn else ()
        if phase in (CLAIM, ROB, DECIDE):
            if seat in self.pending and seat not in self.responses:
                return self.pending[seat]
            return ()
        return ()

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> None:
        """Apply one legal action. Legality is membership in ``legal_actions(seat)`` and
        nothing else, but for a 错和 (``wrong_win``, in no list: where :meth:`action_types`
        has it, :func:`~laizi.engine.refusals.wrong_win_refusal` judges it); a refusal
        leaves the state, the log and the caches untouched and raises one of the typed
        family (:mod:`laizi.errors`, with ``seat`` and ``phase``):

        * :class:`~laizi.errors.MalformedActionError` — not an :class:`Action`, or one
          with fields :meth:`Action.from_json` would refuse (``malformed``), or a type this
          variant does not have (``unknown_type``);
        * :class:`~laizi.errors.IllegalActionError` — ``no_such_seat``, ``hand_over``,
          ``not_your_turn``, ``no_decision`` (the seat is not asked in this window),
          ``already_answered``, or ``illegal`` with the rule broken.
        """
        if not isinstance(action, Action):
            raise MalformedActionError(f"not an Action: {short_repr(action)}",
                                       phase=self.phase)
        for legal in self._legal:
            if legal is not None:
                for a in legal:
                    if a is action:  # the engine's own object: well typed by construction
                        self.apply_trusted(action)
                        return
        # No field is read before this check: a compiled Game would refuse a badly typed
        # one with a bare TypeError.
        check_action(action, self.action_types(), self.n, self.phase)
        seat = action.seat
        if action.type == ActionType.WRONG_WIN:  # 错和: in no legal list, by design
            refused = wrong_win_refusal(self, self.variant, action)
            if refused is not None:
                raise refused
            self._wrong_win(action)
            return
        if action not in self.legal_actions(seat):
            raise refusal(self, self.variant, action)
        self.apply_trusted(action)

    def action_types(self) -> frozenset[str]:
        """Every action type of this game: the engine's and the variant's own, and
        ``wrong_win`` where its rules settle a 错和 (:meth:`Variant.settles_wrong_win`)."""
        types = _CORE_TYPES | self.variant.action_types()
        if self.variant.settles_wrong_win(self.options):
            return types | _WRONG_WIN_TYPES
        return types

    def apply_trusted(self, action: Action) -> None:
        """:meth:`apply` without the legality check, for callers that built ``action``
        from the rules themselves (the search's playouts, which skip the legal-action
        lists). An illegal action corrupts the state: anything else uses :meth:`apply`."""
        seat = action.seat
        if self.keep_log:
            if self.phase == TURN:
                self.log.append(ActionEvent.json(action))
            else:
                # An answer in a window: secret from the other seats until it closes.
                self.log.append(ActionEvent.json(action, True))
        self._legal = [None] * self.n
        kind = action.type
        self.variant.on_action(self, action)
        if self.phase == TURN and kind not in _CORE_TURN:
            self.variant.apply_action(self, action)
        elif self.phase == TURN:
            if kind == DISCARD:
                self._discard(seat, action.tile)  # type: ignore[arg-type]
            elif kind == WIN:
                self._end_win([seat], SELF_DRAW, None, action.tile)  # type: ignore[arg-type]
            elif kind == CONCEALED_KONG:
                t = action.tile
                assert t is not None
                self.hands[seat][t] -= 4
                self.sizes[seat] -= 4
                self.melds[seat].append(Meld(CONCEALED_KONG, (t, t, t, t)))
                self._draw(seat, kong=True)
            elif kind == ADDED_KONG:
                self._added_kong(seat, action.tile)  # type: ignore[arg-type]
            elif kind == SPECIAL_KONG:
                t = action.tile
                assert t is not None
                self.hands[seat][t] -= 1
                self.sizes[seat] -= 1
                self.melds[seat].append(Meld(self.variant.special_kongs(self)[t], (t,)))
                self._draw(seat, kong=True)
        else:
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                if self.phase == CLAIM:
                    self._resolve_claims()
                elif self.phase == ROB:
                    self._resolve_rob()
                else:
                    responses = self.responses
                    self.pending = {}
                    self.responses = {}
                    shown = [responses[s] for s in sorted(responses)
                             if responses[s].type != PASS]
                    if shown and self.keep_log:
                        # A closed decision window makes its declarations public.
                        self.log.append(RevealedEvent(shown).to_json())
                    self.variant.resolve(self, responses)

    # ------------------------------------------------------------------ transitions

    def _discard(self, seat: int, t: int) -> None:
        self.hands[seat][t] -= 1
        self.sizes[seat] -= 1
        self.discards[seat].append(t)
        self.last_tile = t
        self.after_kong = False
        pending = discard_window(self, self.variant, seat, t)
        if pending:
            self.phase = CLAIM
            self.pending = pending
            self.responses = {}
        else:
            self._draw((seat + 1) % self.n)

    def _nearest_first(self, seats: Sequence[int]) -> list[int]:
        d = self.turn
        return sorted(seats, key=lambda s: (s - d) % self.n)

    def _note_passed_wins(self) -> None:
        for s, opts in self.pending.items():
            if opts[0].type == WIN and self.responses[s].type != WIN:
                self.passed_win[s] = True

    def _resolve_claims(self) -> None:
        t = self.last_tile
        assert t is not None
        discarder = self.turn
        responses = self.responses
        for answer in responses.values():
            if answer.type != PASS:
                break
        else:  # everybody passed (most windows): nothing to order, the next seat draws
            self._note_passed_wins()
            self.pending = {}
            self.responses = {}
            self._draw((discarder + 1) % self.n)
            return
        order = self._nearest_first(list(responses))
        winners = [s for s in order if responses[s].type == WIN]
        self._note_passed_wins()
        self.pending = {}
        self.responses = {}
        if winners:
            winners = self.variant.win_order(self, winners)
            if not self.variant.multiple_winners(self.options):
                winners = winners[:1]
            self.discards[discarder].pop()
            self.taken.append(t)
            self._end_win(winners, DISCARD_WIN, discarder, t)
            return
        claim: Action | None = None
        for s in order:
            if responses[s].type in (KONG, PUNG):
                claim = responses[s]
                break
        if claim is None:
            for s in order:
                if responses[s].type == CHOW:
                    claim = responses[s]
                    break
        if claim is None:
            self._draw((discarder + 1) % self.n)
            return
        s = claim.seat
        self.discards[discarder].pop()
        hand = self.hands[s]
        rest = list(claim.tiles)
        rest.remove(t)
        for x in rest:
            hand[x] -= 1
        self.sizes[s] -= len(rest)
        meld = Meld(claim.type, claim.tiles, discarder, t)
        self.melds[s].append(meld)
        self.variant.on_claim(self, s, meld)
        if self.keep_log:
            self.log.append(ClaimEvent.json(s, meld))
        self.turn = s
        if claim.type == KONG:
            self._draw(s, kong=True)
        else:
            self.phase = TURN
            self.turn_kind = CLAIMED
            self.after_kong = False

    def _added_kong(self, seat: int, t: int) -> None:
        pending = rob_window(self, self.variant, seat, t)
        self.last_tile = t
        if pending:
            self.phase = ROB
            self.pending = pending
            self.responses = {}
            return
        self._complete_added_kong(seat, t)

    def _complete_added_kong(self, seat: int, t: int) -> None:
        self.hands[seat][t] -= 1
        self.sizes[seat] -= 1
        melds = self.melds[seat]
        for i, m in enumerate(melds):
            if m.kind == PUNG and m.tiles[0] == t:
                melds[i] = Meld(ADDED_KONG, (t, t, t, t), m.source, m.claimed)
                break
        self._draw(seat, kong=True)

    def _resolve_rob(self) -> None:
        t = self.last_tile
        assert t is not None
        robbed = self.turn
        responses = self.responses
        for answer in responses.values():
            if answer.type != PASS:
                break
        else:  # nobody robs the kong
            self._note_passed_wins()
            self.pending = {}
            self.responses = {}
            self._complete_added_kong(robbed, t)
            return
        winners = [s for s in self._nearest_first(list(responses)) if responses[s].type == WIN]
        self._note_passed_wins()
        self.pending = {}
        self.responses = {}
        if winners:
            winners = self.variant.win_order(self, winners)
            if not self.variant.multiple_winners(self.options):
                winners = winners[:1]
            self._end_win(winners, ROBBED_KONG, robbed, t)
            self.hands[robbed][t] -= 1
            self.sizes[robbed] -= 1
            self.taken.append(t)
            return
        self._complete_added_kong(robbed, t)

    # ------------------------------------------------------------------ variant primitives

    def ask(self, pending: dict[int, Sequence[Action]]) -> None:
        """Open a ``decide`` phase (for variant hooks): ``pending[seat]`` are the actions
        ``seat`` may answer with (variant action types or ``pass``). When every asked
        seat has answered, :meth:`Variant.resolve` gets the answers."""
        if not pending and not self.uniform:
            raise ValueError("ask() needs at least one seat to decide")
        self.phase = DECIDE
        asked = {s: tuple(a) for s, a in pending.items()}
        if self.uniform:
            # Every seat answers, in seat order, so being asked shows nothing.
            asked = {s: asked.get(s, PASS_ONLY[s]) for s in range(self.n)}
        self.pending = asked
        self.responses = {}
        self._legal = [None] * self.n

    def resume(self) -> None:
        """End a ``decide`` phase by going on as before it: a suspended draw is completed
        (the replacement from the tail), otherwise the turn of :attr:`turn` goes on."""
        self.pending = {}
        self.responses = {}
        self._legal = [None] * self.n
        held = self.suspended
        self.suspended = None
        if held is None:
            self.phase = TURN
            return
        seat, kong = int(held["seat"]), bool(held["kong"])
        got = self._take_tail_nonflower(seat, kong)
        if got is not None:
            self._drawn(seat, got, kong)

    def end_win(self, winners: Sequence[int], how: str, source: int | None, tile: int) -> None:
        """End the hand with a win (for variant actions, e.g. a flower win)."""
        self._end_win(winners, how, source, tile)

    # ------------------------------------------------------------------ the end

    def _finish(self, record: HandRecord) -> None:
        self.record = record
        self.payments = self.variant.settle(record)
        self.phase = OVER
        self.pending = {}
        self.responses = {}
        self._legal = [None] * self.n
        if not self.keep_log:
            return
        self.log.append(EndEvent(record_to_json(record, self.variant),
                                 [p.to_json() for p in self.payments],
                                 net(self.payments, self.n)).to_json())

    def _end_win(self, winners: Sequence[int], how: str, source: int | None, tile: int) -> None:
        self._finish(self.make_record(winners, how, source, tile))

    def _wrong_win(self, action: Action) -> None:
        """错和: the hand ends at once, its caller the record's ``source`` (``from``); the
        declaration is public (a window's other answers stay as they were logged)."""
        if self.keep_log:
            self.log.append(ActionEvent.json(action))
        record = self.make_record((), None, None, None)
        self._finish(dataclasses.replace(record, outcome=WRONG_WIN, source=action.seat))

    def _end_draw(self) -> None:
        self._finish(self.make_record((), None, None, None))

    @property
    def net(self) -> list[int]:
        """Net result of the hand per seat (zeros until it is over)."""
        return net(self.payments, self.n)

    def make_record(
        self, winners: Sequence[int], how: str | None, source: int | None, tile: int | None,
        known: Mapping[int, SeatRecord] | None = None
    ) -> HandRecord:
        """The hand record if the hand ended now this way (also used by variants to judge
        a candidate win, e.g. Jingzhou's 8-point minimum)."""
        return hand_record(self, self.variant, winners, how, source, tile, known)

    # ------------------------------------------------------------------ serialisation

    def to_json(self) -> JSON:
        """The complete state (wall included): equal states give equal JSON."""
        return state_to_json(self, self.variant)

    def view(self, seat: object) -> JSON:
        """What ``seat`` may know: its own concealed tiles and everything public.

        ``seat`` must be an int (not a bool) of this game, as for :meth:`legal_actions`."""
        if type(seat) is not int or not 0 <= seat < self.n:
            raise self._seat_error(seat, "view")
        return seat_view(self, self.variant, seat, self._options_json)
