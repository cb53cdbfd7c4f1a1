"""Golden tiles (黄金牌 / 赖子): every assignment tried, the highest total kept (就高).

The golden tiles are set aside and the tiles they may stand for are generated from the
winning shapes themselves (four sets and a pair, seven pairs, thirteen orphans, honours
and knitted tiles, knitted straight), so only assignments that make a win are scored.
An assignment may not make a fifth copy of a tile (counting melds) **(reading)**; copies
seen elsewhere on the table do not count (a golden tile is wild, no copy of a tile).
When the winning tile is itself golden, it may stand for any tile of the assignment;
standing for another tile than its own face it earns no 和绝张 (docs/rules/golden.md,
decision 16).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from operator import itemgetter
from operator import neg as neg_
from typing import Final

from laizi import tiles as T

from .bound import FixedInfo, Masks, tiles_bound, with_flags
from .calculator import score_prepared
from .common import Flags, Scored, flag_fans
from .hand import FanResult, HandError, Meld, WinContext
from .inputs import NOT_A_WIN, meld_packs, win_flags
from .masks import masks
from .prepared import Prepared
from .reference import ReferenceHand
from .reference import score_prepared as reference_score_prepared
from .result import result_from
from .shapes import Pack, suit_key, suit_table

__all__ = ["golden_assignments", "score_golden"]

_ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ANY_SET: Final[tuple[tuple[int, ...], ...]] = (
    *((t, t, t) for t in range(34)),
    *((t, t + 1, t + 2) for t in range(27) if t % 9 < 7),
)
_KNITTED: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(s * 9 + r for s, start in zip(perm, (0, 1, 2), strict=True)
                 for r in range(start, 9, 3)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)

Assign = tuple[int, ...]
Bounded = tuple[Assign, int, bool, int, Assign]
"""An assignment of the golden tiles, its tile bound, whether it has no tile fans, its
hardness and its tie-break key (:func:`_bounded_assignments`)."""


def _free(wilds: int, sets: int, pair: bool) -> Iterator[Assign]:
    """Wild-only completions: ``sets`` whole sets (and a pair) from ``wilds`` wilds."""
    if wilds != 3 * sets + 2 * pair:
        return
    pair_faces: Sequence[tuple[int, ...]] = [(t, t) for t in range(34)] if pair else [()]
    for combo in combinations_with_replacement(_ANY_SET, sets):
        for p in pair_faces:
            yield tuple(x for g in combo for x in g) + p


def _standard(c: list[int], wilds: int, sets: int, pair: bool) -> Iterator[Assign]:
    """Assignments making ``c`` + wilds into ``sets`` sets (+ a pair when ``pair``)."""
    i = next((t for t in range(34) if c[t]), -1)
    if i < 0:
        yield from _free(wilds, sets, pair)
        return
    n = c[i]
    if pair:  # the lowest real tile in the pair
        for real in (2, 1):
            if n >= real and wilds >= 2 - real:
                c[i] -= real
                for rest in _standard(c, wilds - (2 - real), sets, False):
                    yield (i,) * (2 - real) + rest
                c[i] += real
    if sets == 0:
        return
    for real in (3, 2, 1):  # in a pung
        if n >= real and wilds >= 3 - real:
            c[i] -= real
            for rest in _standard(c, wilds - (3 - real), sets - 1, pair):
                yield (i,) * (3 - real) + rest
            c[i] += real
    if i >= 27:
        return
    r = i % 9
    for start in (i - 2, i - 1, i):  # in a chow; tiles below i can only be wild
        if start < i - r or start + 2 > i - r + 8:
            continue
        others = [t for t in (start, start + 1, start + 2) if t != i]
        below = [t for t in others if t < i]
        above = [t for t in others if t > i]
        for use in range(1 << len(above)):
            real_above = [t for k, t in enumerate(above) if use >> k & 1]
            if any(c[t] == 0 for t in real_above):
                continue
            wild_faces = below + [t for t in above if t not in real_above]
            if len(wild_faces) > wilds:
                continue
            c[i] -= 1
            for t in real_above:
                c[t] -= 1
            for rest in _standard(c, wilds - len(wild_faces), sets - 1, pair):
                yield tuple(wild_faces) + rest
            c[i] += 1
            for t in real_above:
                c[t] += 1


def _special(c: list[int], wilds: int) -> Iterator[Assign]:
    """Seven pairs, thirteen orphans, honours and knitted (14 concealed tiles only, no
    melds), knitted straight + set + pair (or + a pair beside one meld)."""
    real = [t for t in range(34) for _ in range(c[t])]
    whole = len(real) + wilds == 14
    singles = [t for t in range(34) if c[t] % 2]
    extra = wilds - len(singles)
    if whole and extra >= 0 and extra % 2 == 0:
        for pairs in combinations_with_replacement(range(34), extra // 2):
            yield tuple(singles) + tuple(x for p in pairs for x in (p, p))
    if whole and all(t in _ORPHANS for t in real) and max(c) <= 2 \
            and sum(n == 2 for n in c) <= 1:
        missing = tuple(t for t in _ORPHANS if not c[t])
        if any(n == 2 for n in c):
            if len(missing) == wilds:
                yield missing
        elif len(missing) + 1 == wilds:
            for p in _ORPHANS:
                yield (*missing, p)
    honours = tuple(range(27, 34))
    for seq in _KNITTED:
        allowed = set(seq) | set(honours)
        if whole and max(c) <= 1 and all(t in allowed for t in real):
            for fill in combinations(sorted(allowed - set(real)), wilds):
                numbered = sum(1 for t in (*real, *fill) if t < 27)
                if 7 <= numbered <= 9:
                    yield fill
        lack = [t for t in seq if not c[t]]
        if len(lack) <= wilds:
            rest = list(c)
            for t in seq:
                if rest[t]:
                    rest[t] -= 1
            left = sum(rest) + wilds - len(lack)
            sets = (left - 2) // 3
            if left in (2, 5):
                for more in _standard(rest, wilds - len(lack), sets, True):
                    yield (*lack, *more)


_FACES: Final = {(size, k): tuple((sum(1 << 8 * i for i in faces), faces)
                                  for faces in combinations_with_replacement(range(size), k))
                 for size in (7, 9) for k in range(5)}


def _group_fills(group: Sequence[int], lo: int, k: int) -> list[Assign]:
    """The multisets of ``k`` faces completing one group (a suit of 9 counts or the 7
    honours, starting at tile ``lo``) into sets, or sets and one pair."""
    size = len(group)
    key = suit_key(group)
    if not key:
        return [tuple(lo + i for i in faces) for faces in _empty_fills(size, k)]
    table = suit_table(size)
    return [tuple(lo + i for i in faces) for delta, faces in _FACES[size, k]
            if key + delta in table]


@cache
def _empty_fills(size: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Fills of an empty group: a constant table (whole sets and pairs of wilds)."""
    table = suit_table(size)
    return tuple(faces for delta, faces in _FACES[size, k] if delta in table)


_SPLITS: Final = {w: tuple(ks for ks in product(range(w + 1), repeat=4) if sum(ks) == w)
                  for w in range(5)}


def _standard_fills(c: Sequence[int], wilds: int) -> list[Assign]:
    """Assignments making ``c`` + wilds into sets and exactly one pair, group by group:
    each of 万 筒 条 and the honours must become sets (a group whose size is 0 mod 3) or
    sets and the pair (2 mod 3), the wilds split among the groups every possible way.
    Each assignment comes out sorted (groups in tile order, each group's faces sorted)."""
    groups = [(c[lo:hi], lo) for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34))]
    sizes = [sum(g) for g, _ in groups]
    cache: dict[tuple[int, int], list[Assign]] = {}
    out: list[Assign] = []
    for split in _SPLITS[wilds]:
        pairs = 0
        for size, k in zip(sizes, split, strict=True):
            r = (size + k) % 3
            if r == 1:
                break
            pairs += r == 2
        else:
            if pairs != 1:
                continue
            parts: list[list[Assign]] = []
            for gi, k in enumerate(split):
                got = cache.get((gi, k))
                if got is None:
                    got = cache[gi, k] = _group_fills(*groups[gi], k)
                if not got:
                    break
                if k:
                    parts.append(got)
            else:
                if len(parts) == 1:
                    out.extend(parts[0])
                elif len(parts) == 2:
                    out.extend(x + y for x in parts[0] for y in parts[1])
                else:
                    out.extend(sum(combo, ()) for combo in product(*parts))
    return out


def golden_assignments(real: Sequence[int], wilds: int, melds: Sequence[Meld]) -> set[Assign]:
    """Every multiset of faces (sorted) the ``wilds`` golden tiles may take to make a win;
    none makes a fifth copy of a tile, melds included."""
    c = T.to_counts(real)
    found = set(_standard_fills(c, wilds))
    if len(melds) <= 1:
        found.update(tuple(sorted(a)) for a in _special(list(c), wilds) if len(a) == wilds)
    room = [4 - n for n in c]
    for m in melds:
        for t in m.tiles:
            room[t] -= 1
    return {a for a in found if all(a.count(t) <= room[t] for t in a)}


def score_golden(concealed: list[int], melds: list[Meld], win: int, ctx: WinContext,
                 golden: int, golden_face: int | None, *, slow: bool = False,
                 seed_kongs: bool = False) -> FanResult:
    """Score with ``golden`` wild copies of ``golden_face`` among ``concealed``
    (``slow``: each candidate scored by the reference calculator, with the seed's kong
    fans when ``seed_kongs``)."""
    if golden_face is None or not 0 <= golden_face < T.NUM_KINDS:
        raise HandError("a golden tile count needs the golden tile's face (golden_face)")
    if concealed.count(golden_face) < golden or golden < 0:
        raise HandError(f"the hand holds {concealed.count(golden_face)} "
                        f"{T.name(golden_face, 'mpsz')}, fewer than {golden} golden tiles")
    real = list(concealed)
    for _ in range(golden):
        real.remove(golden_face)
    win_is_golden = win == golden_face
    if not win_is_golden and win not in real:
        raise HandError("the winning tile must be among the concealed tiles")
    fixed = meld_packs(melds)
    # Branch and bound: every (assignment, winning face) gets a cheap upper bound of its
    # total; candidates are scored from the most promising down, and the search stops at
    # the first whose bound (with its tie-break key) cannot beat the best so far. The
    # order key is the result's own order (total, hardness, assignment, winning face),
    # so the answer is exactly the maximum a full search would keep.
    Cand = tuple[tuple[int, int, Assign, int], Flags, list[str], Assign]
    cands: list[Cand] = []
    fixed_key = tuple(fixed)
    info = _fixed_info(fixed_key)
    real_counts = T.to_counts(real)
    flag_fans_of: dict[Flags, dict[str, int]] = {}
    # win_flags reads only whether another copy of the winning tile stands in the hand
    flags_of: dict[tuple[int, bool], tuple[Flags, list[str]]] = {}
    for assign, tb, plain, hard, neg in _bounded_assignments(
            tuple(sorted(real)), golden, golden_face, tuple(melds), ctx.seat_wind,
            ctx.prevalent_wind, None if win_is_golden else win):
        for w in (sorted(set(assign)) if win_is_golden else (win,)):
            other = real_counts[w] + assign.count(w) > 1
            got = flags_of.get((w, other))
            if got is None:
                standing = list(real_counts)
                for t in assign:
                    standing[t] += 1
                standing[w] -= 1
                got = flags_of[w, other] = _golden_win_flags(ctx, standing, fixed, w,
                                                             win_is_golden and w != golden_face)
            fl, notes = got
            flags = flag_fans_of.get(fl)
            if flags is None:
                flags = flag_fans_of[fl] = flag_fans(fl, info.claimed)
            cands.append(((with_flags(tb, plain, flags), hard, neg, -w), fl, notes, assign))
    cands.sort(key=itemgetter(0), reverse=True)
    best: tuple[tuple[int, int, Assign, int], Scored, list[str], Assign] | None = None
    for bound_key, fl, notes, assign in cands:
        if best is not None and bound_key <= best[0]:
            break
        w = -bound_key[3]
        standing = list(real_counts)
        for t in assign:
            standing[t] += 1
        standing[w] -= 1
        if slow:
            scored = reference_score_prepared(ReferenceHand(fixed, tuple(standing), w, fl),
                                              seed_kongs=seed_kongs)
        else:
            scored = _score_candidate(fixed, fixed_key, tuple(standing), w, fl)
        if scored is None:
            continue
        key = (scored.total, *bound_key[1:])
        if best is None or key > best[0]:
            best = (key, scored, notes, assign)
    if best is None:
        return FanResult(is_win=False, why_not=NOT_A_WIN + f" with {golden} golden tile(s)")
    key, scored, notes, assign = best
    return result_from(scored, -key[3], ctx, notes, golden_as=assign)


_FIXED: dict[tuple[Pack, ...], FixedInfo] = {}


def _fixed_info(fixed: tuple[Pack, ...]) -> FixedInfo:
    """``FixedInfo(fixed)``, made once per melds (it is only read): a seat's melds stay
    the same over every hand the 听牌 hints pose."""
    got = _FIXED.get(fixed)
    if got is None:
        if len(_FIXED) >= 1_024:
            _FIXED.clear()
        got = _FIXED[fixed] = FixedInfo(fixed)
    return got


_CANDIDATES: dict[tuple[object, ...], Scored | None] = {}
"""score_prepared's answers for candidates (concrete hands) of the search: the 听牌 hints
pose every wait of every discard, and with golden tiles the same concrete hand comes back
under many (discard, wait, assignment) — half the candidates of a two-golden turn are
repeats. A pure function of its key; kept small, as ``_gb_scoring``'s scores are."""
_CANDIDATES_MAX: Final = 512


def _score_candidate(fixed: list[Pack], fixed_key: tuple[Pack, ...],
                     standing: tuple[int, ...], w: int, fl: Flags) -> Scored | None:
    """:func:`.calculator.score_prepared` of ``Prepared(fixed, standing, w, fl)``
    (``fixed_key``: ``tuple(fixed)``), remembered."""
    key = (fixed_key, standing, w, fl)
    if key in _CANDIDATES:
        return _CANDIDATES[key]
    got = score_prepared(Prepared(fixed, standing, w, fl))
    if len(_CANDIDATES) >= _CANDIDATES_MAX:
        _CANDIDATES.clear()
    _CANDIDATES[key] = got
    return got


_BOUNDED: dict[tuple[object, ...], tuple[Bounded, ...]] = {}
_BOUNDED_MAX: Final = 512


def _bounded_assignments(real: tuple[int, ...], golden: int, golden_face: int,
                         melds: tuple[Meld, ...], seat: int, prevalent: int,
                         via: int | None = None) -> tuple[Bounded, ...]:
    """Each assignment of the golden tiles with its tile bound (:func:`.bound.tiles_bound`),
    whether its tile fans are none, its hardness (golden tiles standing for their own
    face) and its tie-break key: everything of the search that the win's situation (自摸
    or not, the last tile, ...) does not change, so a hand asked about by self-draw and
    on a discard (the 听牌 hints ask both of every wait) works it out once. Kept small,
    as ``_gb_scoring``'s scores are. ``via``: a tile of ``real`` (the winning tile) to
    derive the assignments through (:func:`_assignments`); the answer is the same."""
    key = (real, golden, golden_face, melds, seat, prevalent)
    got = _BOUNDED.get(key)
    if got is not None:
        return got
    info = _fixed_info(tuple(meld_packs(list(melds))))
    real_counts = T.to_counts(real)
    full_counts = list(real_counts)
    for m in melds:
        for t in m.tiles:
            full_counts[t] += 1
    real_masks = masks(real_counts)
    full_masks = masks(full_counts) if melds else real_masks
    out = []
    for assign in _assignments(real, golden, melds, via):
        full = _add_masks(full_masks, full_counts, assign)
        standing_masks = _add_masks(real_masks, real_counts, assign) if melds else full
        bkey = (melds, full, standing_masks, seat, prevalent)
        bound = _TILE_BOUNDS.get(bkey)
        if bound is None:
            if len(_TILE_BOUNDS) >= _TILE_BOUNDS_MAX:
                _TILE_BOUNDS.clear()
            bound = _TILE_BOUNDS[bkey] = tiles_bound(info, full, standing_masks, seat,
                                                     prevalent)
        tb, plain = bound
        out.append((assign, tb, plain, assign.count(golden_face), tuple(map(neg_, assign))))
    if len(_BOUNDED) >= _BOUNDED_MAX:
        _BOUNDED.clear()
    got = _BOUNDED[key] = tuple(out)
    return got


_TILE_BOUNDS: dict[tuple[object, ...], tuple[int, bool]] = {}
"""tiles_bound's answers by their inputs: the 听牌 hints' hands (the hand less a discard,
plus a wait) come back as the same whole hand under many (discard, wait, assignment)."""
_TILE_BOUNDS_MAX: Final = 4_096
_PARENTS: dict[tuple[object, ...], frozenset[Assign]] = {}
"""golden_assignments of the hands less one tile (their "parent", with one more golden
tile), by (real tiles, golden tiles, melds)."""
_PARENTS_MAX: Final = 512


def _assignments(real: tuple[int, ...], golden: int, melds: tuple[Meld, ...],
                 via: int | None) -> set[Assign] | frozenset[Assign]:
    """:func:`golden_assignments` (exactly: a test holds the two to each other), derived
    when ``via`` is given through the parent hand ``real`` less one ``via`` with one more
    golden tile: ``real`` + A wins iff parent + (A + via) does, and A respects every
    tile's room iff A + via does in the parent. The 听牌 hints ask about the hand less a
    discard plus each of its waits (``via``: the wait), siblings with one parent, which
    costs about what two siblings do. A hand asked about without ``via`` (a golden tile
    drawn: the siblings' parent itself) is kept for its siblings."""
    own = (real, golden, melds)
    got = _PARENTS.get(own)
    if got is not None:
        return got
    if via is None or golden >= 4 or via not in real or \
            real.count(via) + sum(m.tiles.count(via) for m in melds) > 4:
        # (a fifth copy of ``via``: golden_assignments checks the room of the faces only)
        found = golden_assignments(real, golden, melds)
        if via is None and golden >= 2:
            _remember(own, frozenset(found))
        return found
    at = real.index(via)
    parent = real[:at] + real[at + 1:]
    key = (parent, golden + 1, melds)
    got = _PARENTS.get(key)
    if got is None:
        got = frozenset(golden_assignments(parent, golden + 1, melds))
        _remember(key, got)
    out = set()
    for a in got:
        if via in a:
            i = a.index(via)
            out.add(a[:i] + a[i + 1:])
    return out


def _remember(key: tuple[object, ...], found: frozenset[Assign]) -> None:
    if len(_PARENTS) >= _PARENTS_MAX:
        _PARENTS.clear()
    _PARENTS[key] = found


def _golden_win_flags(ctx: WinContext, standing: Sequence[int], fixed: list[Pack], w: int,
                      stand_in: bool) -> tuple[Flags, list[str]]:
    """:func:`.inputs.win_flags` for winning tile ``w``; ``stand_in``: the winning tile is a
    golden tile standing for another face, which is never 和绝张 (the context's
    ``last_copy`` is about the golden tile's own face, and a stand-in is no last copy)."""
    if not stand_in:
        return win_flags(ctx, standing, fixed, w)
    # (a context is equal to itself with last_copy false when it has none: not copied,
    # which would check it again, for every face a golden winning tile may stand for)
    plain = dataclasses.replace(ctx, last_copy=False) if ctx.last_copy else ctx
    fl, notes = win_flags(plain, standing, fixed, w)
    if fl.last_copy:  # (three copies of w in the melds: still a stand-in)
        fl = fl._replace(last_copy=False)
        notes = [n for n in notes if not n.startswith("和绝张")]
    if ctx.last_copy:
        notes.append(_STAND_IN)
    return fl, notes


_STAND_IN: Final = ("和绝张 not counted: the winning tile is a golden tile standing for another "
                    "tile")


def _add_masks(m: Masks, counts: Sequence[int], faces: Assign) -> Masks:
    """The masks of ``counts`` + ``faces`` from the masks ``m`` of ``counts`` (faces are
    sorted, so repeated faces are adjacent)."""
    got = list(m)
    prev = -1
    extra = 0
    for t in faces:
        extra = extra + 1 if t == prev else 1
        prev = t
        n = counts[t] + extra
        if n <= 4:
            got[n - 1] |= 1 << t
    return got[0], got[1], got[2], got[3]
