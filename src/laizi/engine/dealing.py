"""The deal and every draw from the wall: the part of a hand that moves tiles from the wall.

:class:`Dealing` is the layer of :class:`~laizi.engine.game.Game` that shuffles (or takes)
the wall, deals, draws from the head and replaces from the tail, sets flowers aside (补花)
and turns indicators up; with per-seat streams (:meth:`HandState.split_wall`) each draw
first brings its tile to the head or the tail. A draw the wall cannot make ends the hand
(:meth:`_end_draw`, the game's).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from laizi import tiles as T
from laizi.engine.events import DealEvent, DrawEvent, FlowerEvent, IndicatorEvent
from laizi.engine.state import HandState
from laizi.engine.variant import Variant
from laizi.vocab import Phase, TurnStart

__all__ = ["Dealing"]

_TURN: Final = Phase.TURN
_DECIDE: Final = Phase.DECIDE
_DRAWN: Final = TurnStart.DRAWN
_REPLACED: Final = TurnStart.REPLACED


class Dealing(HandState):
    """A hand state with its rules that deals and draws (see the module)."""

    variant: Variant
    _dealt_flowers: dict[int, list[int]]

    def _end_draw(self) -> None:
        """End the hand drawn (黄庄): the wall has run out."""
        raise NotImplementedError

    def _shuffled_wall(self, seed: int | None, wall: Sequence[int] | None) -> list[int]:
        v = self.variant
        tiles = sorted(v.tile_set(self.options))
        if wall is None:
            if seed is None:
                raise ValueError("a game needs a seed or a wall")
            random.Random(seed).shuffle(tiles)
            return tiles
        if sorted(wall) != tiles:
            raise ValueError(f"the given wall is not the {v.id} tile set in some order")
        return list(wall)

    # ------------------------------------------------------------------ setup

    def _deal(self) -> None:
        v, n = self.variant, self.n
        order = [(self.dealer + i) % n for i in range(n)]
        for seat in order:
            for _ in range(v.hand_size):
                self._give(seat, self.wall[self.head])
                self.head += 1
        last = self.wall[self.head]
        self.head += 1
        self._give(self.dealer, last)
        self.log.append(DealEvent([list(self.concealed(s)) for s in range(n)]).to_json())
        self.last_tile = last
        v.setup(self)
        if self.indicators or self.wildcard is not None:
            self.log.append(IndicatorEvent(list(self.indicators), self.wildcard).to_json())
        for seat in order:
            for t in self._dealt_flowers.get(seat, ()):
                self.log.append(FlowerEvent.json(seat, t))
                if self.tail - self.head <= self.reserve:
                    self._end_draw()
                    return
                got = self._take_tail_nonflower(seat)
                if got is None:
                    return
                if seat == self.dealer:
                    self.last_tile = got
                self._give(seat, got)
                self.log.append(DrawEvent.json(seat, got, True))

    def _give(self, seat: int, t: int) -> None:
        if t >= T.NUM_KINDS:
            # A flower dealt is set aside and replaced from the tail after the deal.
            self.flowers[seat].append(t)
            self._dealt_flowers.setdefault(seat, []).append(t)
            return
        self.hands[seat][t] += 1
        self.sizes[seat] += 1

    def _take_tail_nonflower(self, seat: int, kong: bool | None = None) -> int | None:
        """Take from the tail, setting flowers aside; ``None`` if the wall ran out or (in
        play, ``kong`` given) a flower interrupted the draw (``Variant.on_flower``)."""
        while True:
            if self.tail - self.head <= self.reserve:
                self._end_draw()
                return None
            if self.own_walls:
                if not self._own_wall_left(seat):
                    return None
                self._bring(self._seat_stream_tile(seat), self.tail - 1)
            elif self.seat_streams is not None:
                self._bring(self._far_stream_tile(), self.tail - 1)
            self.tail -= 1
            t = self.wall[self.tail]
            if t not in self.flower_set:
                return t
            self.flowers[seat].append(t)
            self.log.append(FlowerEvent.json(seat, t))
            if kong is not None and self._flower_interrupts(seat, t, kong):
                return None

    def reveal_indicator(self) -> int:
        """Turn the last tile of the tail face up, out of play (for ``Variant.setup``)."""
        if self.seat_streams is not None:
            self._bring(self._far_stream_tile(), self.tail - 1)
        self.tail -= 1
        t = self.wall[self.tail]
        self.indicators.append(t)
        return t

    def _draw(self, seat: int, *, kong: bool = False) -> None:
        """Ordinary draw from the head, or (after a kong) a replacement from the tail."""
        if self.tail - self.head <= self.reserve:
            self._end_draw()
            return
        if self.own_walls and not self._own_wall_left(seat):
            return
        if kong:
            got = self._take_tail_nonflower(seat, True)
            if got is None:
                return
            t = got
        else:
            if self.seat_streams is not None:
                self._bring(self._seat_stream_tile(seat), self.head)
            t = self.wall[self.head]
            self.head += 1
            if t in self.flower_set:
                self.flowers[seat].append(t)
                self.log.append(FlowerEvent.json(seat, t))
                if self._flower_interrupts(seat, t, False):
                    return
                got = self._take_tail_nonflower(seat, False)
                if got is None:
                    return
                t = got
        self._drawn(seat, t, kong)

    def _own_wall_left(self, seat: int) -> bool:
        """Per-seat walls (:attr:`own_walls`): whether ``seat``'s own wall has a tile;
        if not, the hand is drawn."""
        if self.seat_streams is not None and self.seat_streams[seat]:
            return True
        self._end_draw()
        return False

    def _drawn(self, seat: int, t: int, kong: bool) -> None:
        self.hands[seat][t] += 1
        self.sizes[seat] += 1
        self.turn = seat
        self.phase = _TURN
        self.turn_kind = _REPLACED if kong else _DRAWN
        self.after_kong = kong
        self.last_tile = t
        self.passed_win[seat] = False
        if self.keep_log:
            self.log.append(DrawEvent.json(seat, t, kong))

    def _flower_interrupts(self, seat: int, flower: int, kong: bool) -> bool:
        self.variant.on_flower(self, seat, flower)
        if self.phase != _DECIDE:
            return False
        self.suspended = {"seat": seat, "kong": kong}
        return True

    def move_flower(self, from_seat: int, to_seat: int, flower: int) -> None:
        """Move a set-aside flower between seats (Taiwan 七抢一); logged as a ``flower``
        event with ``from``."""
        self.flowers[from_seat].remove(flower)
        self.flowers[to_seat].append(flower)
        self.log.append(FlowerEvent.json(to_seat, flower, from_seat))

    def draw_replacement(self, seat: int) -> int | None:
        """Give ``seat`` a replacement from the tail (flowers set aside) without starting a
        turn; ``None`` if the wall ran out (the hand is then drawn)."""
        got = self._take_tail_nonflower(seat)
        if got is None:
            return None
        self.hands[seat][got] += 1
        self.sizes[seat] += 1
        self.last_tile = got
        self.log.append(DrawEvent.json(seat, got, True))
        return got
