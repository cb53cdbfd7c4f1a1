"""Seeded random MCR winning hands and the PyMahjongGB adapter (shared by the tests,
scripts/verify_mcr.py and benchmarks/bench_fan.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from laizi import tiles as T
from laizi.scoring.mcr import FAN_BY_KEY, Meld, WinContext

WINDS = (T.EAST, T.SOUTH, T.WEST, T.NORTH)

# PyMahjongGB's English names -> our keys (its spelling differs in a few places).
_GB_EN = {f.en.lower(): f.key for f in FAN_BY_KEY.values()}
_GB_EN.update({
    "all honors": "all_honours",
    "all terminals and honors": "all_terminals_and_honours",
    "greater honors and knitted tiles": "greater_honours_and_knitted",
    "lesser honors and knitted tiles": "lesser_honours_and_knitted",
    "pung of terminals or honors": "pung_of_terminals_or_honours",
    "no honors": "no_honours",
    "two dragons pungs": "two_dragon_pungs",
    "all five": "all_fives",
})


@dataclass(frozen=True)
class Case:
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win: int
    ctx: WinContext
    offers: tuple[int, ...]  # PyMahjongGB offer per meld (0 = concealed kong)

    def describe(self) -> str:
        m = ",".join(f"{x.kind}:{T.format(x.tiles)}" for x in self.melds)
        return (f"{T.format(sorted(self.concealed))} melds=[{m}] win={T.name(self.win, 'mpsz')} "
                f"ctx={self.ctx.to_json()}")


def gb_fans(case: Case) -> dict[str, int]:
    """PyMahjongGB's fans for ``case`` as ``{our key: count}`` (raises TypeError)."""
    from MahjongGB import MahjongFanCalculator

    hand = list(case.concealed)
    hand.remove(case.win)
    packs = []
    for m, offer in zip(case.melds, case.offers, strict=True):
        kind = {"chow": "CHI", "pung": "PENG"}.get(m.kind, "GANG")
        tile = m.tile + 1 if m.kind == "chow" else m.tile
        packs.append((kind, T.name(tile, "gb"), offer))
    ctx = case.ctx
    assert len(hand) + 3 * len(packs) == 13
    res = MahjongFanCalculator(
        pack=tuple(packs), hand=tuple(T.name(t, "gb") for t in hand),
        winTile=T.name(case.win, "gb"), flowerCount=ctx.flowers,
        isSelfDrawn=ctx.self_drawn, is4thTile=ctx.last_copy,
        isAboutKong=ctx.kong_replacement or ctx.robbed_kong,
        isWallLast=ctx.last_tile_of_wall or ctx.last_discard,
        seatWind=ctx.seat_wind - T.EAST, prevalentWind=ctx.prevalent_wind - T.EAST,
        verbose=True)
    out: dict[str, int] = {}
    for _value, cnt, _zh, en in res:
        out[_GB_EN[en.lower()]] = cnt
    return out


def _context(rng: random.Random, has_kong: bool) -> WinContext:
    self_drawn = rng.random() < 0.5
    wall = rng.random() < 0.08
    kong = rng.random() < (0.25 if has_kong else 0.05)
    return WinContext(
        self_drawn=self_drawn,
        last_tile_of_wall=wall and self_drawn,
        last_discard=wall and not self_drawn,
        kong_replacement=kong and self_drawn,
        robbed_kong=kong and not self_drawn and not wall,
        last_copy=rng.random() < 0.1,
        seat_wind=rng.choice(WINDS),
        prevalent_wind=rng.choice(WINDS),
        flowers=rng.choice((0, 0, 0, 1, 2, 3, 8)),
    )


def _pool(rng: random.Random) -> list[int]:
    """Tiles the sets are drawn from: biased toward flushes, honours, terminals, …"""
    style = rng.random()
    if style < 0.25:
        return list(range(34))
    if style < 0.4:
        s = rng.randrange(3) * 9
        return list(range(s, s + 9))
    if style < 0.55:
        s = rng.randrange(3) * 9
        return [*range(s, s + 9), *range(27, 34)]
    if style < 0.65:
        return [0, 8, 9, 17, 18, 26, *range(27, 34)]
    if style < 0.75:
        lo, hi = rng.choice(((0, 3), (0, 4), (3, 6), (5, 9), (6, 9), (1, 8)))
        return [s * 9 + r for s in range(3) for r in range(lo, hi)]
    if style < 0.85:
        return [19, 20, 21, 23, 25, 32, 9, 10, 11, 12, 13, 16, 17, 22, 26, 31]
    s = rng.randrange(3) * 9
    return [*range(s, s + 9), *range(27, 34), *rng.sample(range(27), 4)]


def _standard(rng: random.Random) -> Case | None:
    pool = _pool(rng)
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    chow_bias = rng.random()
    kong_bias = rng.choice((0.0, 0.1, 0.3, 0.6))
    tries = 0
    while len(sets) < 4:
        tries += 1
        if tries > 200:
            return None
        t = rng.choice(pool)
        if sets and rng.random() < 0.3:  # repeat/shift an earlier set: combination fans
            _kind0, t0 = rng.choice(sets)
            t = t0 + rng.choice((0, 1, 2, 3, -1, 9, 18, -9, -18, 10, 19))
            if not 0 <= t < 34 or (t0 < 27) != (t < 27):
                continue
        r = rng.random()
        if r < chow_bias and t < 27 and t % 9 < 7:
            need = {t: 1, t + 1: 1, t + 2: 1}
            kind = "chow"
        elif r < chow_bias + (1 - chow_bias) * kong_bias:
            need = {t: 4}
            kind = "kong"
        else:
            need = {t: 3}
            kind = "pung"
        if any(counts[x] + n > 4 for x, n in need.items()):
            continue
        for x, n in need.items():
            counts[x] += n
        sets.append((kind, t))
    pair_choices = [t for t in pool if counts[t] <= 2] or [t for t in range(34) if counts[t] <= 2]
    p = rng.choice(pair_choices)
    counts[p] += 2
    melds: list[Meld] = []
    offers: list[int] = []
    concealed: list[int] = [p, p]
    n_open = rng.choice((0, 0, 1, 2, 3, 4))
    order = list(range(4))
    rng.shuffle(order)
    for i, (kind, t) in enumerate(sets):
        open_ = order.index(i) < n_open
        if kind == "kong":
            concealed_kong = rng.random() < 0.4
            melds.append(Meld("concealed_kong" if concealed_kong else "kong", t))
            offers.append(0 if concealed_kong else rng.randint(1, 3))
        elif open_:
            melds.append(Meld(kind, t))
            offers.append(rng.randint(1, 3))
        else:
            concealed.extend((t, t + 1, t + 2) if kind == "chow" else (t, t, t))
    win = rng.choice(concealed)
    has_kong = any(m.is_kong for m in melds)
    return Case(tuple(concealed), tuple(melds), win, _context(rng, has_kong), tuple(offers))


def _knitted_seq(rng: random.Random) -> list[int]:
    perm = rng.sample((0, 1, 2), 3)
    return [perm[k] * 9 + r for k in range(3) for r in range(k, 9, 3)]


def _special(rng: random.Random) -> Case | None:
    kind = rng.choice(("seven_pairs", "seven_pairs", "orphans", "knitted", "knitted_set",
                       "knitted_set"))
    melds: list[Meld] = []
    offers: list[int] = []
    if kind == "seven_pairs":
        pool = _pool(rng)
        counts = [0] * 34
        if rng.random() < 0.15:  # seven shifted pairs
            s = rng.randrange(3) * 9 + rng.randrange(3)
            tiles = [t for t in range(s, s + 7) for _ in range(2)]
        else:
            tiles = []
            while len(tiles) < 14:
                t = rng.choice(pool)
                if counts[t] <= 2:
                    counts[t] += 2
                    tiles += [t, t]
    elif kind == "orphans":
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        tiles = [*orphans, rng.choice(orphans)]
    elif kind == "knitted":
        seq = _knitted_seq(rng)
        n_honours = rng.choice((5, 6, 7))
        tiles = rng.sample(seq, 14 - n_honours) + rng.sample(range(27, 34), n_honours)
    else:
        seq = _knitted_seq(rng)
        counts = [0] * 34
        for t in seq:
            counts[t] += 1
        for _ in range(50):
            t = rng.randrange(34)
            r = rng.random()
            if r < 0.5 and t < 27 and t % 9 < 7:
                need = {t: 1, t + 1: 1, t + 2: 1}
                mk = "chow"
            elif r < 0.8:
                need = {t: 3}
                mk = "pung"
            else:
                need = {t: 4}
                mk = "kong"
            if all(counts[x] + n <= 4 for x, n in need.items()):
                break
        else:
            return None
        for x, n in need.items():
            counts[x] += n
        p = rng.choice([t for t in range(34) if counts[t] <= 2])
        tiles = [*seq, p, p]
        if mk == "kong" or rng.random() < 0.4:
            if mk == "kong":
                ck = rng.random() < 0.5
                melds.append(Meld("concealed_kong" if ck else "kong", t))
                offers.append(0 if ck else rng.randint(1, 3))
            else:
                melds.append(Meld(mk, t))
                offers.append(rng.randint(1, 3))
        else:
            tiles += [t, t + 1, t + 2] if mk == "chow" else [t, t, t]
    win = rng.choice(tiles)
    has_kong = any(m.is_kong for m in melds)
    return Case(tuple(tiles), tuple(melds), win, _context(rng, has_kong), tuple(offers))


def _template(rng: random.Random) -> Case | None:
    """Rare shapes a random draw seldom makes: 九莲宝灯, 双龙会, 绿一色, 无番和, …"""
    kind = rng.randrange(6)
    s = rng.randrange(3) * 9
    sets: list[tuple[str, int]]
    if kind == 0:  # nine gates: no sets, 1112345678999 + any tile of the suit
        tiles = [s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8, s + rng.randrange(9)]
        win = rng.choice(tiles) if rng.random() < 0.3 else tiles[-1]
        return Case(tuple(tiles), (), win, _context(rng, False), ())
    if kind == 1:  # pure terminal chows
        sets = [("chow", s), ("chow", s), ("chow", s + 6), ("chow", s + 6)]
        pair = s + 4
    elif kind == 2:  # three-suited terminal chows
        a, b, c = rng.sample((0, 9, 18), 3)
        sets = [("chow", a), ("chow", a + 6), ("chow", b), ("chow", b + 6)]
        pair = c + 4
    elif kind == 3:  # all green
        sets = [rng.choice((("chow", 19), ("pung", 19), ("pung", 20), ("pung", 21),
                            ("pung", 23), ("pung", 25), ("pung", 32))) for _ in range(4)]
        pair = rng.choice((19, 20, 21, 23, 25, 32))
    elif kind == 4:  # chicken hand candidates: unrelated chows, an honour pair
        sets = [("chow", rng.randrange(3) * 9 + rng.randrange(7)) for _ in range(3)]
        sets.append(rng.choice((("pung", rng.randrange(27)), ("chow", rng.randrange(7) + 9))))
        pair = rng.choice((rng.randrange(27), *range(27, 34)))
    else:  # quadruple / shifted chows and pungs of one suit
        step = rng.choice((0, 1, 2))
        start = rng.randrange(9 - 2 - 3 * step) if step else rng.randrange(7)
        kind_ = rng.choice(("chow", "pung")) if step < 2 else "chow"
        sets = [(kind_, s + start + k * step) for k in range(4)]
        pair = rng.randrange(34)
    counts = [0] * 34
    for k, t in sets:
        for x in ((t, t + 1, t + 2) if k == "chow" else (t, t, t)):
            counts[x] += 1
    counts[pair] += 2
    if max(counts) > 4:
        return None
    n_open = rng.choice((0, 1, 1, 2, 4))
    melds: list[Meld] = []
    offers: list[int] = []
    concealed = [pair, pair]
    for i, (k, t) in enumerate(sets):
        if i < n_open:
            melds.append(Meld(k, t))
            offers.append(rng.randint(1, 3))
        else:
            concealed.extend((t, t + 1, t + 2) if k == "chow" else (t, t, t))
    return Case(tuple(concealed), tuple(melds), rng.choice(concealed), _context(rng, False),
                tuple(offers))


def random_case(rng: random.Random) -> Case:
    """One random winning hand (golden-free)."""
    while True:
        r = rng.random()
        case = _special(rng) if r < 0.15 else _template(rng) if r < 0.25 else _standard(rng)
        if case is not None:
            return case


def ours(case: Case) -> dict[str, int]:
    from laizi.scoring.mcr import score_hand

    res = score_hand(case.concealed, case.melds, case.win, case.ctx)
    assert res.is_win, case.describe()
    return res.counts()


def as_json(case: Case) -> dict[str, Any]:
    return {"hand": case.describe()}
