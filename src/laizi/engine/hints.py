"""听牌提示: for one seat, what each discard would wait on and what each win would pay.

On a seat's turn (a hand of 3n+2 tiles) :func:`hints` lists every discard that leaves the
hand ready (听牌): its waits, how many copies of each this seat has not seen, and what
winning on it would bring the seat under the table's own rules — by self-draw (自摸) and
on a discard (点炮: the least and the most over the seats that could discard it). With a
hand of 3n+1 (a claim window, another seat's turn) it lists the hand's waits now.

A hall works the turn out with a budget (:class:`HintWork`'s ``eager``): every ready
discard is found, but only the waits of the first ones, up to ``eager`` tiles posed, come
with them; the rest are worked out when the player chooses that discard
(:meth:`HintWork.waits_of`). A hand holding wildcards can be ready on a dozen discards
with thirty waits each, every one a win to judge and settle twice or four times: worked
out whole, such a turn took over 30 ms; the player looks at one or two of them.

Everything comes from the engine: a tile is a wait when the variant's
:meth:`~laizi.engine.variant.Variant.win_refusal` accepts the win (wildcards, 258 pairs,
minimums, 过水 included; a tile its cheap :meth:`~laizi.engine.variant.Variant.may_win`
rules out is not asked), and a win's worth is the variant's own
:meth:`~laizi.engine.variant.Variant.settle` of the record the engine would write
(:meth:`~laizi.engine.state.HandState.make_record`). Nothing is worked out a second time.

Hidden information stays hidden: the wins are posed on a *blind* copy of the hand
(:func:`blind_copy`) in which every tile this seat cannot see — the other concealed hands,
the wall — is replaced by the same canonical filler, worked out from the seat's view
alone, and every other seat's pending answer is dropped. So the hints are a function of
what the seat sees (and of the variant's public history in ``extra``): two hands that
differ only in what the seat cannot see give the same hints (``tests/test_hints.py``).
The unseen copies are counted from the seat's view (:mod:`laizi.engine.seen`).

A posed win is the next chance at that tile: a self-draw in a plain turn (not after a
kong), a discard by a seat in its turn; 过水 is over by then (the seat has discarded).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.records import DISCARD_WIN, SELF_DRAW, SeatRecord
from laizi.engine.seen import unseen_counts
from laizi.engine.state import HandState
from laizi.engine.variant import Variant
from laizi.settlement import net
from laizi.vocab import Phase, TurnStart

__all__ = ["EAGER_WAITS", "DiscardHint", "HintWork", "Hints", "WaitHint", "blind_copy",
           "hints"]

EAGER_WAITS = 16
"""The hall's budget for a turn's hints (:class:`HintWork`'s ``eager``): waits posed to
work out the ready discards' waits with the turn. Most ready turns fit (greedy play:
82% in golden, 85-99% in the others); past it, in the hands with wildcards that are ready
on a dozen discards, a turn's hints stay under 12 ms (``benchmarks/bench_hints.py``)."""


@dataclass(frozen=True, slots=True)
class WaitHint:
    """One wait (听的牌) and what winning on it would bring."""

    tile: int
    unseen: int
    """Copies of the tile this seat has not seen (in other hands or the wall)."""
    self_draw: int | None
    """The seat's net gain winning on it by self-draw (自摸); ``None``: not a win so."""
    on_discard: tuple[int, int] | None
    """The least and the most the seat would gain winning on another seat's discard of it
    (点炮), over the seats that could discard it; ``None``: not a win so."""

    def to_json(self) -> JSON:
        return {"tile": self.tile, "unseen": self.unseen, "self_draw": self.self_draw,
                "on_discard": None if self.on_discard is None else list(self.on_discard)}


@dataclass(frozen=True, slots=True)
class DiscardHint:
    """A discard that leaves the hand ready (打这张听牌), with its waits."""

    tile: int
    waits: tuple[WaitHint, ...] | None
    """``None``: not worked out with the turn (over its budget): :meth:`HintWork.waits_of`
    works them out when asked (never empty: the discard is ready)."""

    def to_json(self) -> JSON:
        return {"tile": self.tile,
                "waits": None if self.waits is None else [w.to_json() for w in self.waits]}


@dataclass(frozen=True, slots=True)
class Hints:
    """A seat's hints: ``discards`` on its turn, ``waits`` when its hand is ready now."""

    discards: tuple[DiscardHint, ...] = ()
    waits: tuple[WaitHint, ...] = ()

    def to_json(self) -> JSON:
        return {"discards": [d.to_json() for d in self.discards],
                "waits": [w.to_json() for w in self.waits]}


def blind_copy(game: HandState, seat: int, unseen: list[int]) -> HandState:
    """A copy of ``game`` as ``seat`` can know it: the tiles it cannot see (``unseen``
    counts, from its view) dealt in tile order to the other concealed hands (their sizes
    are public) and then to the live wall; nobody else's pending answer is kept."""
    probe = game.copy()
    filler: list[int] = []
    for t, k in enumerate(unseen[:T.NUM_KINDS]):
        filler.extend([t] * k)
    at = 0
    for s in range(game.n):
        if s == seat:
            continue
        counts = [0] * len(game.hands[s])
        for t in filler[at:at + game.sizes[s]]:
            counts[t] += 1
        at += game.sizes[s]
        probe.hands[s] = counts
    wall = list(game.wall)
    live = filler[at:] + [T.NUM_KINDS - 1] * (game.tail - game.head)  # padded: never short
    wall[game.head:game.tail] = live[:game.tail - game.head]
    probe.wall = wall
    probe.seat_streams = None
    probe.own_walls = False
    probe.pending = {}
    probe.responses = {}
    return probe


class HintWork:
    """The hints of one seat worked out a discard at a time (:meth:`step`), so a server
    can let other work run between the steps. Everything the work reads is copied when
    it starts (the blind copy, the seat's hand, the unseen counts): the game may move on
    meanwhile; the result is of the hand as it was.

    ``eager``: on a turn, how many waits (tiles that complete the hand's shape, each a win
    to judge and settle) the steps may pose in all to work out the ready discards' waits,
    in tile order; a discard beyond it is only found ready (its first win judged), and
    :meth:`waits_of` works out its waits when they are asked for. ``None``: no limit."""

    def __init__(self, game: HandState, v: Variant, seat: int, view: JSON,
                 eager: int | None = None) -> None:
        self.v, self.seat, self.eager = v, seat, eager
        self.hand = list(game.hands[seat])
        self.ready: list[DiscardHint] = []
        self.waits: tuple[WaitHint, ...] = ()
        self.todo: list[int | None] = []
        self.known: dict[int, SeatRecord] = {}
        self.posed = 0
        """Waits posed so far to work out ready discards' waits (against ``eager``)."""
        self.worked: dict[int, tuple[WaitHint, ...]] = {}
        """The waits of each ready discard worked out so far (with the turn or asked)."""
        if game.phase == Phase.OVER:
            return
        size = sum(self.hand)
        if size % 3 == 2:
            if game.phase != Phase.TURN or game.turn != seat:
                return
            undiscardable = v.undiscardable(game, seat)
            self.todo = [d for d in range(T.NUM_KINDS)
                         if self.hand[d] and d not in undiscardable]
        else:
            self.todo = [None]  # the hand's own waits
        self.unseen = unseen_counts(view)
        self.probe = blind_copy(game, seat, self.unseen)
        # The other seats' parts of every record posed: the same for every wait.
        self.known = {s: r for s, r in enumerate(self.probe.make_record([], None, None,
                                                                        None).seats)
                      if s != seat}
        self.todo.reverse()  # popped from the end: in tile order

    @property
    def done(self) -> bool:
        return not self.todo

    def step(self) -> None:
        """Work out the next discard (or the hand's own waits)."""
        d = self.todo.pop()
        hand = self.hand
        if d is None:
            self.waits = _waits(self.probe, self.v, self.seat, hand, None, self.unseen,
                                self.known)
            return
        hand[d] -= 1
        try:
            tiles = _shape_waits(self.probe, self.v, self.seat, hand, d)
            if self.eager is None or self.posed + len(tiles) <= self.eager:
                self.posed += len(tiles)
                waits = _waits(self.probe, self.v, self.seat, hand, d, self.unseen,
                               self.known, tiles)
                if waits:
                    self.worked[d] = waits
                    self.ready.append(DiscardHint(d, waits))
            elif _wins_any(self.probe, self.v, self.seat, hand, d, tiles):
                self.ready.append(DiscardHint(d, None))
        finally:
            hand[d] += 1

    def result(self) -> Hints:
        assert self.done
        return Hints(discards=tuple(self.ready), waits=self.waits)

    def waits_of(self, discard: int) -> tuple[WaitHint, ...] | None:
        """The waits of ready ``discard`` (worked out now unless they were already);
        ``None`` when it is not one of the ready discards found (nothing is worked out)."""
        assert self.done
        got = self.worked.get(discard)
        if got is not None:
            return got
        if not any(h.tile == discard for h in self.ready):
            return None
        hand = self.hand
        hand[discard] -= 1
        try:
            got = _waits(self.probe, self.v, self.seat, hand, discard, self.unseen,
                         self.known)
        finally:
            hand[discard] += 1
        self.worked[discard] = got
        return got


def hints(game: HandState, v: Variant, seat: int, view: JSON) -> Hints:
    """The 听牌 hints of ``seat`` (whose ``view`` is :meth:`Game.view` of it) now: the
    ready discards on its turn with 3n+2 tiles, else its waits with 3n+1 (empty when not
    ready, or when the hand is over)."""
    work = HintWork(game, v, seat, view)
    while not work.done:
        work.step()
    return work.result()


def _shape_waits(probe: HandState, v: Variant, seat: int, hand: list[int],
                 discard: int | None) -> list[int]:
    """The tiles that could complete the 3n+1 ``hand`` once ``discard`` (if any) is out
    (the variant's cheap :meth:`~laizi.engine.variant.Variant.may_win`; most tiles fail
    it), save those the seat already holds four of: the waits to judge."""
    held = list(hand)  # the seat's own copies: a fifth one is no tile of the wall
    for m in probe.melds[seat]:
        for x in m.tiles:
            held[x] += 1
    out = []
    posed = list(hand)
    with _posing(probe, seat, discard):
        for t in range(T.NUM_KINDS):
            if held[t] >= 4:
                continue
            posed[t] += 1
            if v.may_win(probe, seat, posed):
                out.append(t)
            posed[t] -= 1
    return out


@contextmanager
def _posing(probe: HandState, seat: int, discard: int | None) -> Iterator[None]:
    """Wins posed on the blind ``probe`` once ``discard`` (if any) is out; everything the
    posing writes is restored afterwards."""
    discards = probe.discards[seat]
    if discard is not None:
        discards.append(discard)
    saved = (probe.hands[seat], probe.sizes[seat], probe.turn, probe.phase, probe.turn_kind,
             probe.last_tile, probe.after_kong, probe.passed_win[seat])
    probe.passed_win[seat] = False
    try:
        yield
    finally:
        (probe.hands[seat], probe.sizes[seat], probe.turn, probe.phase, probe.turn_kind,
         probe.last_tile, probe.after_kong, probe.passed_win[seat]) = saved
        if discard is not None:
            discards.pop()


def _waits(probe: HandState, v: Variant, seat: int, hand: list[int], discard: int | None,
           unseen: list[int], known: Mapping[int, SeatRecord],
           tiles: list[int] | None = None) -> tuple[WaitHint, ...]:
    """The waits of the 3n+1 ``hand`` once ``discard`` (if any) is out, posed on the blind
    ``probe`` (restored afterwards); ``known``: the other seats' records; ``tiles``: the
    hand's :func:`_shape_waits`, when the caller has them."""
    if tiles is None:
        tiles = _shape_waits(probe, v, seat, hand, discard)
    out = []
    with _posing(probe, seat, discard):
        for t in tiles:
            drawn = _self_draw(probe, v, seat, hand, t, known)
            taken = _on_discard(probe, v, seat, hand, t, known)
            if drawn is not None or taken is not None:
                # The discarded copy was in the hand: seen before and after.
                out.append(WaitHint(t, unseen[t], drawn, taken))
    return tuple(out)


def _wins_any(probe: HandState, v: Variant, seat: int, hand: list[int], discard: int,
              tiles: list[int]) -> bool:
    """Whether one of ``tiles`` wins for the 3n+1 ``hand`` once ``discard`` is out, by
    self-draw or on a discard (what makes :func:`_waits` non-empty, judged as it judges,
    without settling, and stopping at the first win)."""
    with _posing(probe, seat, discard):
        for t in tiles:
            _pose_self_draw(probe, seat, hand, t)
            if v.win_refusal(probe, seat, t, SELF_DRAW) is None:
                return True
            _pose_claim(probe, seat, hand, t)
            if any(refused is None for _, refused in _discard_verdicts(probe, v, seat, t)):
                return True
    return False


def _pose_self_draw(probe: HandState, seat: int, hand: list[int], t: int) -> None:
    """The probe as if ``seat`` had drawn ``t`` into ``hand`` in a plain turn."""
    posed = list(hand)
    posed[t] += 1
    probe.hands[seat], probe.sizes[seat] = posed, sum(posed)
    probe.turn, probe.phase, probe.turn_kind = seat, Phase.TURN, TurnStart.DRAWN
    probe.last_tile, probe.after_kong = t, False


def _pose_claim(probe: HandState, seat: int, hand: list[int], t: int) -> None:
    """The probe in the claim window of a discard of ``t`` (its discarder, ``turn``, set
    by the caller), ``seat`` holding ``hand``."""
    probe.hands[seat], probe.sizes[seat] = list(hand), sum(hand)
    probe.phase, probe.turn_kind, probe.last_tile, probe.after_kong = (
        Phase.CLAIM, TurnStart.DRAWN, t, False)


def _self_draw(probe: HandState, v: Variant, seat: int, hand: list[int], t: int,
               known: Mapping[int, SeatRecord] | None = None) -> int | None:
    """What ``seat`` gains drawing ``t`` into ``hand`` in a plain turn, if that wins."""
    _pose_self_draw(probe, seat, hand, t)
    if v.win_refusal(probe, seat, t, SELF_DRAW) is not None:
        return None
    record = probe.make_record([seat], SELF_DRAW, None, t, known)
    return net(v.settle(record), probe.n)[seat]


def _on_discard(probe: HandState, v: Variant, seat: int, hand: list[int], t: int,
                known: Mapping[int, SeatRecord] | None = None) -> tuple[int, int] | None:
    """The least and most ``seat`` gains winning on another seat's discard of ``t``."""
    _pose_claim(probe, seat, hand, t)
    gains = []
    for source, refused in _discard_verdicts(probe, v, seat, t):
        if refused is not None:
            continue
        # As the engine does: the discard is taken from its pool (into ``taken``) when
        # the win ends the hand.
        probe.taken.append(t)
        record = probe.make_record([seat], DISCARD_WIN, source, t, known)
        probe.taken.pop()
        gains.append(net(v.settle(record), probe.n)[seat])
    return (min(gains), max(gains)) if gains else None


def _discard_verdicts(probe: HandState, v: Variant, seat: int, t: int
                      ) -> Iterator[tuple[int, str | None]]:
    """For each other seat as the discarder of ``t`` (the probe's turn set to it, the
    claim posed by :func:`_pose_claim`): the variant's verdict on ``seat`` winning on it
    (``None``: allowed). Judged once when the discarder does not matter."""
    once: tuple[str | None] | None = None
    for source in _others(probe.n, seat):
        probe.turn = source
        if once is None:
            # As the engine does: the discard lies in its pool while the window is open.
            pool = probe.discards[source]
            pool.append(t)
            refused = v.win_refusal(probe, seat, t, DISCARD_WIN)
            pool.pop()
            if not v.discarder_matters:
                once = (refused,)
        else:
            refused = once[0]
        yield source, refused


def _others(n: int, seat: int) -> Iterable[int]:
    return ((seat + i) % n for i in range(1, n))
