"""Arranged walls for tests, puzzles and teaching: choose the deal and the next draws.

``arrange_wall`` returns a wall (a permutation of the variant's tile set) that deals the
given hands, then gives the given ordinary draws from the head and the given tail tiles
(indicator first, then replacement draws) from the tail. Pass it as ``Game(..., wall=w)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi.engine.variant import Variant

__all__ = ["arrange_wall"]


def arrange_wall(
    variant: Variant,
    hands: Sequence[Sequence[int]],
    draws: Sequence[int] = (),
    tail: Sequence[int] = (),
    *,
    dealer: int = 0,
    options: object = None,
) -> list[int]:
    """``hands[s]`` are seat ``s``'s dealt tiles (the dealer's last one is its extra tile);
    ``draws`` the ordinary draws in order; ``tail[0]`` is the first tile taken from the
    tail (Jingzhou: the indicator), ``tail[1]`` the next, … The other tiles fill the middle
    in sorted order."""
    options = variant.default_options() if options is None else options
    n, size = variant.seats, variant.hand_size
    if len(hands) != n:
        raise ValueError(f"{variant.id} has {n} seats; {len(hands)} hands given")
    for s, h in enumerate(hands):
        want = size + (s == dealer)
        if len(h) != want:
            raise ValueError(f"seat {s} is dealt {want} tiles; {len(h)} given")
    head: list[int] = []
    for i in range(n):
        s = (dealer + i) % n
        head.extend(hands[s][:size])
    head.append(hands[dealer][size])
    head.extend(draws)
    rest = sorted(variant.tile_set(options))
    for t in [*head, *tail]:
        try:
            rest.remove(t)
        except ValueError:
            raise ValueError(f"tile {t} is used more often than the tile set has it") from None
    return head + rest + list(reversed(tail))
