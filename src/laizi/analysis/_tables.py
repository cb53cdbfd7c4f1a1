"""Per-group tables: one *group* is a suit (9 tiles) or the honours (7 tiles).

A standard hand (n melds + a pair) splits into independent groups: a meld never crosses a
suit. For a group's count vector ``v`` (keyed by ``bytes(v)``) the tables hold:

* ``need``: the fewest wildcards that complete *every* tile of ``v`` into melds
  (``need0``) or into melds + the pair (``need1``); :data:`INF` when impossible.
* ``cover``: for shanten, ``h[p][m]`` = the most tiles of ``v`` that a target of at most
  ``m`` melds (+ the pair when ``p``) can contain, every target tile at most 4 copies.
* ``wait``: bit masks of the ranks ``r`` whose addition makes ``need`` small enough, per
  wildcard budget (used by :func:`laizi.analysis.waits`).

Both ``need`` and ``cover`` are dynamic programmes over the ranks of the group whose state
after rank ``i`` (chows started one and two ranks back, melds, pair placed) depends only on
the counts of ranks ``0..i``. Each table therefore keeps a small *automaton*: a state is the
DP's value vector (normalised by subtracting its minimum / maximum, the offset carried
alongside), and the transition on the next count is computed the first time it is taken,
then memoised. A new key costs one walk of 7 or 9 memoised steps (microseconds) instead
of a DP; a process typically reaches a few thousand states of a table (at most ~40,000
for groups of up to 18 tiles; ``docs/analysis.md`` has the measured costs). ``need``
takes counts up to 5 (a hypothetical fifth copy asked by :func:`waits`), ``cover`` up to
4; larger counts fall back to the exact per-key programmes of
:mod:`laizi.analysis._group`, memoised as well.

The 4-copy rule: a wildcard may stand for a tile only while the reading holds at most 4
copies of it (the hand's own copies included). The hand's own tiles are never refused, so
a hypothetical fifth real copy (asked by :func:`waits`) is judged by shape alone.
"""

from __future__ import annotations

from functools import cache

from laizi.analysis._group import (
    BUDGETS,
    INF,
    MAX_MELDS,
    Cover,
    compute_cover,
    compute_need,
    intern_cover,
)

__all__ = ["GroupTable", "KnitCover", "KnitNeed", "Need", "Shape"]

_DEAD = -1
"""The transition into "no feasible completion" (e.g. four of an honour: no standard use)."""

NeedState = bytes
"""A need DP state, packed like :data:`CoverState`: (entry code, wildcards above the
state's cheapest) byte pairs. Entries INF or more above the cheapest are dropped: the
tables cap every answer at INF, so such an entry can never change one."""

_N_DECODE: tuple[tuple[int, int, int], ...] = tuple(
    (k, a, p) for k in range(6) for a in range(6) for p in (0, 1)
)
_N_CODE: dict[tuple[int, int, int], int] = {e: i for i, e in enumerate(_N_DECODE)}
_STEP_BITS = 8
"""A transition is packed as ``next state id << 8 | offset`` (offsets stay below 256)."""
CoverState = bytes
"""A cover DP state, packed: (entry code, covered tiles below the state's best) byte pairs,
sorted by code; a few dozen bytes instead of a tuple of tuples (the automaton may reach
tens of thousands of states over a long simulation)."""

_C_DECODE: tuple[tuple[int, int, int, int], ...] = tuple(
    (k, a, m, p)
    for k in range(5)
    for a in range(5 - k)  # chows through a rank never exceed its 4 copies
    for m in range(MAX_MELDS + 1)
    for p in (0, 1)
)
_C_CODE: dict[tuple[int, int, int, int], int] = {e: i for i, e in enumerate(_C_DECODE)}
Need = tuple[int, int, int, int, int]
"""(need0, need1 - need0, odd, knit, middle): see GroupTable.get_need."""
Shape = tuple[int, int, int, int, int, int, int, int]
"""(cover id, tiles, pairs, singles, kinds, knit, orphans, orphan pair): GroupTable.get_shape."""
KnitCover = tuple[int, int]
"""(tiles of one residue class held, cover id of the rest): see GroupTable.get_knit_cover."""
KnitNeed = tuple[int, int, int, bytes]
"""(held, need0, need1 - need0, rest key): see GroupTable.get_knit_need."""


class GroupTable:
    """Lazily filled tables for one kind of group.

    ``size`` is 9 (suit) or 7 (honours), ``chows`` whether sequences may be formed and
    ``pair_ok[i]`` whether the tile of rank ``i + 1`` may be the pair.
    """

    __slots__ = (
        "_c_final",
        "_c_ids",
        "_c_states",
        "_c_trans",
        "_n_final",
        "_n_ids",
        "_n_states",
        "_n_trans",
        "chows",
        "cover",
        "cover_id",
        "knit_cover",
        "knit_need",
        "need",
        "pair_ok",
        "parity",
        "shape",
        "size",
        "wait",
    )

    def __init__(self, size: int, chows: bool, pair_ok: tuple[bool, ...]) -> None:
        self.size = size
        self.chows = chows and size == 9
        self.pair_ok = pair_ok
        self.need: dict[bytes, Need] = {}
        self.cover: dict[bytes, Cover] = {}
        self.cover_id: dict[bytes, int] = {}
        self.shape: dict[bytes, Shape] = {}
        self.wait: dict[bytes, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.parity: dict[bytes, tuple[int, int]] = {}
        self.knit_cover: dict[bytes, tuple[KnitCover, KnitCover, KnitCover]] = {}
        self.knit_need: dict[bytes, tuple[KnitNeed, KnitNeed, KnitNeed]] = {}
        # automata: state id -> (layer, packed values); transitions keyed by id * 8 + count
        start_n: NeedState = bytes((_N_CODE[(0, 0, 0)], 0))
        self._n_states: list[tuple[int, NeedState]] = [(0, start_n)]
        self._n_ids: dict[tuple[int, NeedState], int] = {(0, start_n): 0}
        self._n_trans: dict[int, int] = {}
        self._n_final: dict[int, tuple[int, int]] = {}
        start_c: CoverState = bytes((_C_CODE[(0, 0, 0, 0)], 0))
        self._c_states: list[tuple[int, CoverState]] = [(0, start_c)]
        self._c_ids: dict[tuple[int, CoverState], int] = {(0, start_c): 0}
        self._c_trans: dict[int, int] = {}
        self._c_final: dict[tuple[int, int], Cover] = {}

    def automaton_states(self) -> tuple[int, int]:
        """How many ``need`` and ``cover`` automaton states have been reached so far."""
        return len(self._n_states), len(self._c_states)

    # ------------------------------------------------------------------ need
    def get_need(self, key: bytes) -> Need:
        """``(need0, need1 - need0, odd, knit, middle)`` for ``key``, filled on first use.

        Beside the need, cheap facts for the special shapes, read in the same lookup: ``odd``
        = ranks held an odd number of times (七对), ``knit`` = most ranks held of one
        residue class 147 / 258 / 369 (a bound on a 组合龙's tiles in this suit), ``middle``
        = tiles of ranks 2-8 (十三幺 holds none). Honours: ``knit`` and ``middle`` are 0.
        """
        got = self.need.get(key)
        if got is None:
            if len(key) == self.size and max(key) <= 5:
                n0, n1 = self._walk_need(key)
            else:
                n0, n1 = compute_need(tuple(key), self.chows, self.pair_ok)
            odd = sum(1 for x in key if x & 1)
            knit = middle = 0
            if self.size == 9:
                for o in range(3):
                    held = (key[o] > 0) + (key[o + 3] > 0) + (key[o + 6] > 0)
                    if held > knit:
                        knit = held
                middle = sum(key[1:8])
            got = self.need[key] = (n0, n1 - n0, odd, knit, middle)
        return got

    def _walk_need(self, key: bytes) -> tuple[int, int]:
        trans = self._n_trans
        sid = 0
        off = 0
        for x in key:
            step = trans.get(sid * 8 + x)
            if step is None:
                step = self._need_step(sid, x)
            if step < 0:
                return INF, INF
            sid = step >> _STEP_BITS
            off += step & 255
        fin = self._n_final.get(sid)
        if fin is None:
            it = iter(self._n_states[sid][1])
            values = {_N_DECODE[code]: above for code, above in zip(it, it, strict=True)}
            fin = self._n_final[sid] = (
                values.get((0, 0, 0), INF),
                values.get((0, 0, 1), INF),
            )
        return min(fin[0] + off, INF), min(fin[1] + off, INF)

    def _need_step(self, sid: int, x: int) -> int:
        """The need DP at rank ``i`` (the state's layer) for count ``x`` <= 5: choose a
        pung, the pair, and k chows starting here; the target count ``t`` of the rank must
        hold the ``x`` real copies, and ``t - x`` wildcards are allowed only with t <= 4
        (a fifth real copy, asked by :func:`waits`, is judged by shape alone). With counts
        at most 5, a target above 5 is never needed: u <= 1 pung and k <= 5 chows."""
        i, state = self._n_states[sid]
        chow_here = self.chows and i + 2 < self.size
        pair_here = self.pair_ok[i]
        new: dict[tuple[int, int, int], int] = {}
        it = iter(state)
        for code, val in zip(it, it, strict=True):
            a, b, p = _N_DECODE[code]
            for u in (0, 1):
                for q in (0, 1) if not p and pair_here else (0,):
                    t0 = a + b + 3 * u + 2 * q
                    for k in range(6 if chow_here else 1):
                        t = t0 + k
                        if t < x:
                            continue
                        if t > 4 and t > x:  # wildcards only up to 4 copies
                            break
                        nk = (k, a, p + q)
                        v = val + t - x
                        if new.get(nk, INF * 4) > v:
                            new[nk] = v
        step = self._intern_need(i + 1, new)
        self._n_trans[sid * 8 + x] = step
        return step

    def _intern_need(self, layer: int, new: dict[tuple[int, int, int], int]) -> int:
        if not new:
            return _DEAD
        off = min(new.values())
        packed = sorted((_N_CODE[k], v - off) for k, v in new.items() if v - off < INF)
        state: NeedState = bytes([x for pair in packed for x in pair])
        ident = (layer, state)
        nid = self._n_ids.get(ident)
        if nid is None:
            nid = self._n_ids[ident] = len(self._n_states)
            self._n_states.append(ident)
        return _pack_step(nid, off)

    # ------------------------------------------------------------------ cover
    def get_cover(self, key: bytes) -> Cover:
        got = self.cover.get(key)
        if got is None:
            if len(key) == self.size and max(key) <= 4:
                got = self._walk_cover(key)
            else:
                got = compute_cover(tuple(key), self.chows, self.pair_ok, MAX_MELDS)
            self.cover[key] = got
        return got

    def _walk_cover(self, key: bytes) -> Cover:
        trans = self._c_trans
        sid = 0
        off = 0
        for x in key:
            step = trans.get(sid * 8 + x)
            if step is None:
                step = self._cover_step(sid, x)
            sid = step >> _STEP_BITS
            off += step & 255
        got = self._c_final.get((sid, off))
        if got is None:
            h0 = [-INF] * (MAX_MELDS + 1)
            h1 = [-INF] * (MAX_MELDS + 1)
            it = iter(self._c_states[sid][1])
            for code, below in zip(it, it, strict=True):
                _k, _a, m, p = _C_DECODE[code]
                h = h1 if p else h0
                if h[m] < off - below:
                    h[m] = off - below
            for h in (h0, h1):
                for m in range(1, MAX_MELDS + 1):
                    if h[m] < h[m - 1]:
                        h[m] = h[m - 1]
            got = self._c_final[(sid, off)] = (tuple(h0), tuple(h1))
        return got

    def _cover_step(self, sid: int, x: int) -> int:
        """One rank of :func:`compute_cover`'s DP (without its look-ahead bound, which
        only prunes chows that cover nothing more)."""
        i, state = self._c_states[sid]
        chow_here = self.chows and i + 2 < self.size
        pair_here = self.pair_ok[i]
        new: dict[tuple[int, int, int, int], int] = {}
        it = iter(state)
        for code, below in zip(it, it, strict=True):
            a, b, m, p = _C_DECODE[code]
            val = -below
            for dm, k, q, gain in _cover_options(a + b, p, x, chow_here, pair_here):
                mm = m + dm
                if mm > MAX_MELDS:
                    continue
                nk = (k, a, mm, p + q)
                got = val + gain
                if new.get(nk, -INF * 4) < got:
                    new[nk] = got
        # Pareto pruning as in compute_cover: same carries and pair, more melds for no
        # more covered tiles can never do better ("at most m melds").
        best: dict[tuple[int, int, int], int] = {}
        kept: list[tuple[tuple[int, int, int, int], int]] = []
        for nk in sorted(new, key=lambda s: s[2]):
            carry = (nk[0], nk[1], nk[3])
            val = new[nk]
            if best.get(carry, -INF * 4) < val:
                best[carry] = val
                kept.append((nk, val))
        off = max(v for _, v in kept)
        packed = sorted((_C_CODE[k], off - v) for k, v in kept)
        state2: CoverState = bytes([x for pair in packed for x in pair])
        ident = (i + 1, state2)
        nid = self._c_ids.get(ident)
        if nid is None:
            nid = self._c_ids[ident] = len(self._c_states)
            self._c_states.append(ident)
        step = self._c_trans[sid * 8 + x] = _pack_step(nid, off)
        return step

    def get_cover_id(self, key: bytes) -> int:
        """The interned id (see :func:`intern_cover`) of ``key``'s cover vector."""
        got = self.cover_id.get(key)
        if got is None:
            got = self.cover_id[key] = intern_cover(self.get_cover(key))
        return got

    def get_shape(self, key: bytes) -> Shape:
        """``(cover id, tiles, pairs, singles, kinds, knit, orphans, orphan pair)`` for
        shanten. The 七对 term needs the pairs (``min(x, 4) // 2`` summed) and the odd
        counts; the 十三幺 term the 幺九 ranks held and whether one is held twice; the
        knitted terms the ranks held (``kinds``) and the bound ``knit`` of
        :meth:`get_need`. Honours: every rank is 幺九, ``knit`` is 0."""
        got = self.shape.get(key)
        if got is None:
            pairs = sum(min(x, 4) // 2 for x in key)
            singles = sum(min(x, 4) & 1 for x in key)
            kinds = sum(1 for x in key if x)
            ends = (0, 8) if self.size == 9 else tuple(range(self.size))
            orphans = sum(1 for r in ends if key[r])
            orphan_pair = 1 if any(key[r] >= 2 for r in ends) else 0
            knit = self.get_need(key)[3] if self.size == 9 else 0
            got = self.shape[key] = (self.get_cover_id(key), sum(key), pairs, singles, kinds,
                                     knit, orphans, orphan_pair)
        return got

    # ------------------------------------------------------------------ 组合龙
    def get_knit_cover(self, key: bytes) -> tuple[KnitCover, KnitCover, KnitCover]:
        """Per residue class ``o`` of a suit (ranks o+1, o+4, o+7: this suit's part of a
        knitted straight): ``(tiles of the class held, cover id of the rest)``, the rest
        being ``key`` with one copy of each held class tile taken out. Used for 组合龙
        targets of at most one meld (14 tiles), where the rest is covered exactly as a
        free group: one meld and the pair reach at most 3 copies of a rank, so together
        with the straight's copy no tile exceeds 4 (the 4-copy rule never binds)."""
        got = self.knit_cover.get(key)
        if got is None:
            e = [(held, self.get_cover_id(rest)) for held, rest in _knit_rests(key)]
            got = self.knit_cover[key] = (e[0], e[1], e[2])
        return got

    def get_knit_need(self, key: bytes) -> tuple[KnitNeed, KnitNeed, KnitNeed]:
        """Per residue class (see :meth:`get_knit_cover`): ``(held, need0, need1 - need0,
        rest key)`` of the rest, for 组合龙 win and wait tests of at most one meld."""
        got = self.knit_need.get(key)
        if got is None:
            e: list[KnitNeed] = []
            for held, rest in _knit_rests(key):
                n0, d, _odd, _knit, _mid = self.get_need(rest)
                e.append((held, n0, d, rest))
            got = self.knit_need[key] = (e[0], e[1], e[2])
        return got

    # ------------------------------------------------------------------ waits
    def get_parity(self, key: bytes) -> tuple[int, int]:
        """``(odd, even)`` rank masks for 七对 waits: counts 1 or 3, and counts 0 or 2."""
        got = self.parity.get(key)
        if got is None:
            odd = sum(1 << r for r, x in enumerate(key) if x in (1, 3))
            even = sum(1 << r for r, x in enumerate(key) if x in (0, 2))
            got = self.parity[key] = (odd, even)
        return got

    def get_wait(self, key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(mask0, mask1)``: ``mask_p[b]`` has bit r set when adding rank r leaves a
        need (without / with the pair) of at most ``b`` wildcards."""
        got = self.wait.get(key)
        if got is None:
            mask0 = [0] * BUDGETS
            mask1 = [0] * BUDGETS
            base = bytearray(key)
            for r in range(self.size):
                base[r] += 1
                n0, d, _odd, _knit, _mid = self.get_need(bytes(base))
                base[r] -= 1
                n1 = n0 + d
                for b in range(BUDGETS):
                    if n0 <= b:
                        mask0[b] |= 1 << r
                    if n1 <= b:
                        mask1[b] |= 1 << r
            got = self.wait[key] = (tuple(mask0), tuple(mask1))
        return got


def _knit_rests(key: bytes) -> list[tuple[int, bytes]]:
    """``(held, rest)`` per residue class 0, 1, 2 of a 9-rank suit key: how many of the
    class's three ranks the key holds, and the key with one copy of each taken out."""
    out = []
    for o in range(3):
        rest = bytearray(key)
        held = 0
        for r in (o, o + 3, o + 6):
            if rest[r]:
                rest[r] -= 1
                held += 1
        out.append((held, bytes(rest)))
    return out


def _pack_step(nid: int, off: int) -> int:
    # offsets are small by construction (need: under INF + 6, cover: at most 4 a rank)
    if not 0 <= off < 1 << _STEP_BITS:
        raise AssertionError(f"automaton offset {off} out of range")
    return nid << _STEP_BITS | off


@cache
def _cover_options(
    base: int, p: int, x: int, chow_here: bool, pair_here: bool
) -> tuple[tuple[int, int, int, int], ...]:
    """The moves of the cover DP at one rank: ``(melds added, chows started here, pair
    placed, tiles of the rank covered)`` for ``base`` chows passing through, a pung only
    when the rank holds a tile, every target at most 4 copies."""
    out = []
    for u in (0, 1) if x else (0,):
        for q in (0, 1) if not p and pair_here else (0,):
            t0 = base + 3 * u + 2 * q
            if t0 > 4:
                continue
            for k in range(4 - t0 + 1 if chow_here else 1):
                tt = t0 + k
                out.append((u + k, k, q, x if x < tt else tt))
    return tuple(out)


