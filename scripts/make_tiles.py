"""Write the browser client's tile faces: ``src/laizi/server/static/tiles/*.svg``.

One SVG a tile, named by its MPSZ name (``1m`` … ``9m``, ``1p`` … ``9p``, ``1s`` … ``9s``,
``1z`` … ``7z`` = 东南西北白发中, ``1f`` … ``8f`` = 春夏秋冬梅兰竹菊 as in ``laizi.tiles``),
plus ``back.svg``. Our own drawings (MIT, like the rest of laizi): 万 is the Chinese
numeral over 萬, 筒 dot patterns, 条 bamboo sticks (一条 a bird), the winds and dragons
their characters, flowers and seasons a character, a small drawing and their number.
Characters are SVG text in the reader's CJK font (Noto CJK on Debian: ``fonts-noto-cjk``).

Run ``python scripts/make_tiles.py`` after changing a drawing; the files are committed.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "laizi" / "server" / "static" / "tiles"

W, H = 60, 80
"""The tile's box; the face is inset, with a darker edge below (the tile's thickness)."""

INK = "#1d2a44"
RED = "#c62828"
GREEN = "#1b7a3d"
BLUE = "#1f4e9c"
FACE = "#fbf8ef"
EDGE = "#d8cfb8"
SERIF = ("'Noto Serif CJK SC','Noto Serif CJK TC','Source Han Serif SC','Songti SC',"
         "'SimSun','Noto Sans CJK SC','Source Han Sans SC','Microsoft YaHei',serif")

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWERS = [("春", "1"), ("夏", "2"), ("秋", "3"), ("冬", "4"),
           ("梅", "1"), ("蘭", "2"), ("竹", "4"), ("菊", "3")]
"""1f-8f: the seasons 春夏秋冬, then 梅 兰 竹 菊 (the order of ``laizi.tiles``); the
small number is the one printed on real tiles (梅1 蘭2 菊3 竹4)."""
NAMES_ZH = (
    [f"{n}万" for n in NUMERALS] + [f"{n}筒" for n in NUMERALS]
    + [f"{n}条" for n in NUMERALS] + list("东南西北白发中") + list("春夏秋冬梅兰竹菊"))


def _frame(body: str, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img">\n<title>{title}</title>\n'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="{EDGE}"/>\n'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 6}" rx="7" fill="{FACE}" '
        f'stroke="#b9ae93" stroke-width="1"/>\n{body}</svg>\n')


def _text(x: float, y: float, s: str, size: float, fill: str, weight: str = "700") -> str:
    return (f'<text x="{x}" y="{y}" font-family="{SERIF}" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}" text-anchor="middle" '
            f'dominant-baseline="central">{s}</text>\n')


# ---------------------------------------------------------------- 万


def characters(rank: int) -> str:
    return (_text(30, 23, NUMERALS[rank - 1], 26, INK)
            + _text(30, 53, "萬", 27, RED))


# ---------------------------------------------------------------- 筒

_DOTS: dict[int, list[tuple[float, float, str]]] = {
    2: [(30, 21, GREEN), (30, 53, BLUE)],
    3: [(15, 14, BLUE), (30, 37, RED), (45, 60, GREEN)],
    4: [(17, 20, BLUE), (43, 20, GREEN), (17, 54, GREEN), (43, 54, BLUE)],
    5: [(16, 16, BLUE), (44, 16, GREEN), (30, 37, RED), (16, 58, GREEN), (44, 58, BLUE)],
    6: [(19, 13, GREEN), (41, 13, GREEN), (19, 38, RED), (41, 38, RED), (19, 60, RED),
        (41, 60, RED)],
    7: [(13, 10, GREEN), (30, 17, GREEN), (47, 24, GREEN), (19, 42, RED), (41, 42, RED),
        (19, 61, RED), (41, 61, RED)],
    8: [(19, 11, BLUE), (41, 11, BLUE), (19, 28, BLUE), (41, 28, BLUE), (19, 46, BLUE),
        (41, 46, BLUE), (19, 63, BLUE), (41, 63, BLUE)],
    9: [(14, 13, BLUE), (30, 13, BLUE), (46, 13, BLUE), (14, 37, RED), (30, 37, RED),
        (46, 37, RED), (14, 61, GREEN), (30, 61, GREEN), (46, 61, GREEN)],
}
_DOT_R = {2: 11, 3: 9, 4: 10, 5: 9, 6: 8, 7: 7, 8: 7, 9: 7}


def _dot(x: float, y: float, r: float, color: str) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="{r}" fill="{color}"/>\n'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.68:.2f}" fill="{FACE}"/>\n'
            f'<circle cx="{x}" cy="{y}" r="{r * 0.42:.2f}" fill="{color}"/>\n')


def dots(rank: int) -> str:
    if rank == 1:
        out = f'<circle cx="30" cy="37" r="22" fill="{GREEN}"/>\n'
        out += f'<circle cx="30" cy="37" r="18" fill="{FACE}"/>\n'
        for k in range(12):
            a = k * math.pi / 6
            out += (f'<circle cx="{30 + 14.5 * math.cos(a):.2f}" '
                    f'cy="{37 + 14.5 * math.sin(a):.2f}" r="2.6" fill="{BLUE}"/>\n')
        out += f'<circle cx="30" cy="37" r="9" fill="{RED}"/>\n'
        out += f'<circle cx="30" cy="37" r="5" fill="{FACE}"/>\n'
        out += f'<circle cx="30" cy="37" r="2.5" fill="{RED}"/>\n'
        return out
    return "".join(_dot(x, y, _DOT_R[rank], c) for x, y, c in _DOTS[rank])


# ---------------------------------------------------------------- 条


def _stick(x: float, y: float, h: float, color: str) -> str:
    """A bamboo stick centred on (x, y), ``h`` tall: a rounded stalk, a node at each end
    and one in the middle, a light stripe down its side."""
    w = 7.6
    top = y - h / 2
    out = (f'<rect x="{x - w / 2:.2f}" y="{top:.2f}" width="{w}" height="{h}" rx="3.8" '
           f'fill="{color}"/>\n'
           f'<rect x="{x - w / 2 + 1.6:.2f}" y="{top + 3:.2f}" width="1.5" '
           f'height="{h - 6:.2f}" rx="0.7" fill="{FACE}" opacity="0.55"/>\n')
    for f in (0.0, 0.5, 1.0):
        ny = top + 2 + f * (h - 4)
        out += (f'<line x1="{x - w / 2 + 0.6:.2f}" y1="{ny:.2f}" x2="{x + w / 2 - 0.6:.2f}" '
                f'y2="{ny:.2f}" stroke="{FACE}" stroke-width="1.3"/>\n')
    return out


_STICKS: dict[int, list[tuple[float, float, str]]] = {
    2: [(30, 22, GREEN), (30, 52, GREEN)],
    3: [(30, 22, GREEN), (20, 52, GREEN), (40, 52, GREEN)],
    4: [(20, 22, GREEN), (40, 22, GREEN), (20, 52, GREEN), (40, 52, GREEN)],
    5: [(16, 22, GREEN), (44, 22, GREEN), (30, 37, RED), (16, 52, GREEN), (44, 52, GREEN)],
    6: [(16, 22, GREEN), (30, 22, GREEN), (44, 22, GREEN), (16, 52, GREEN), (30, 52, GREEN),
        (44, 52, GREEN)],
    7: [(30, 13, RED), (16, 37, GREEN), (30, 37, GREEN), (44, 37, GREEN), (16, 61, GREEN),
        (30, 61, GREEN), (44, 61, GREEN)],
    8: [(12, 22, GREEN), (24, 22, GREEN), (36, 22, GREEN), (48, 22, GREEN), (12, 52, GREEN),
        (24, 52, GREEN), (36, 52, GREEN), (48, 52, GREEN)],
    9: [(16, 13, GREEN), (30, 13, RED), (44, 13, GREEN), (16, 37, GREEN), (30, 37, RED),
        (44, 37, GREEN), (16, 61, GREEN), (30, 61, RED), (44, 61, GREEN)],
}


def _bird() -> str:
    """一条: a small bird on a twig (our own drawing)."""
    return (
        # tail feathers
        f'<path d="M27 44 C 16 50, 11 62, 13 70 C 19 62, 24 56, 31 50 Z" fill="{GREEN}"/>\n'
        f'<path d="M30 46 C 24 56, 24 66, 28 72 C 31 63, 33 56, 35 49 Z" fill="{BLUE}"/>\n'
        # body and wing
        f'<ellipse cx="34" cy="38" rx="13" ry="10" fill="{GREEN}"/>\n'
        f'<path d="M28 34 C 34 30, 42 33, 44 40 C 38 38, 33 39, 28 42 Z" fill="{BLUE}"/>\n'
        # head, crest, beak, eye
        f'<circle cx="44" cy="24" r="7" fill="{RED}"/>\n'
        f'<path d="M42 17 L 40 10 L 45 16 L 47 9 L 47 17 Z" fill="{RED}"/>\n'
        f'<path d="M50 23 L 57 25 L 50 27 Z" fill="#d9a016"/>\n'
        f'<circle cx="46" cy="23" r="1.7" fill="{FACE}"/>\n'
        f'<circle cx="46.3" cy="23" r="0.9" fill="{INK}"/>\n'
        f'<path d="M38 30 C 40 32, 41 33, 42 30" stroke="{FACE}" stroke-width="1" fill="none"/>\n'
        # twig and feet
        f'<path d="M8 56 C 22 52, 38 52, 54 56" stroke="#8a5a2b" stroke-width="2.4" '
        f'fill="none" stroke-linecap="round"/>\n'
        f'<path d="M33 47 L 32 54 M 37 47 L 38 54" stroke="#8a5a2b" stroke-width="1.4"/>\n')


def bamboo(rank: int) -> str:
    if rank == 1:
        return _bird()
    h = 21 if rank in (7, 9) else 25
    return "".join(_stick(x, y, h, c) for x, y, c in _STICKS[rank])


# ---------------------------------------------------------------- honours


def honour(rank: int) -> str:
    if rank <= 4:
        return _text(30, 38, WINDS[rank - 1], 38, INK)
    if rank == 5:  # 白: a framed blank, as on most sets
        return (f'<rect x="12" y="12" width="36" height="50" rx="3" fill="none" '
                f'stroke="{BLUE}" stroke-width="3"/>\n'
                f'<rect x="17" y="17" width="26" height="40" rx="2" fill="none" '
                f'stroke="{BLUE}" stroke-width="1.2"/>\n')
    if rank == 6:
        return _text(30, 38, "發", 38, GREEN)
    return _text(30, 38, "中", 40, RED)


# ---------------------------------------------------------------- flowers and seasons


def _blossom(cx: float, cy: float, r: float, petal: str, heart: str, n: int = 5) -> str:
    out = ""
    for k in range(n):
        a = -math.pi / 2 + 2 * math.pi * k / n
        out += (f'<circle cx="{cx + r * math.cos(a):.2f}" cy="{cy + r * math.sin(a):.2f}" '
                f'r="{r * 0.72:.2f}" fill="{petal}"/>\n')
    return out + f'<circle cx="{cx}" cy="{cy}" r="{r * 0.55:.2f}" fill="{heart}"/>\n'


def flower(rank: int) -> str:
    char, number = FLOWERS[rank - 1]
    season = rank <= 4
    color = GREEN if season else RED
    out = _text(11, 12, number, 11, BLUE if season else GREEN, "700")
    if season:
        # a sun over hills for the seasons
        out += '<circle cx="38" cy="22" r="8" fill="#e0a526"/>\n'
        out += (f'<path d="M8 40 Q 20 26, 32 38 T 54 36 L 54 44 L 8 44 Z" '
                f'fill="{GREEN}" opacity="0.85"/>\n')
    else:
        out += ('<path d="M30 44 C 30 36, 27 30, 22 24" stroke="#6b4a2b" stroke-width="1.6" '
                'fill="none"/>\n')
        out += _blossom(22, 22, 4.6, "#e58aa6" if rank in (5, 6) else "#e6b422", RED)
        out += _blossom(40, 27, 3.6, "#e58aa6" if rank in (5, 6) else "#e6b422", RED)
    out += _text(30, 59, char, 22, color)
    return out


# ---------------------------------------------------------------- the back


def back() -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img">\n<title>背面 (tile back)</title>\n'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="#0c5a46"/>\n'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 6}" rx="7" fill="#168566" '
        f'stroke="#0c5a46" stroke-width="1"/>\n'
        f'<rect x="8" y="8" width="{W - 16}" height="{H - 20}" rx="4" fill="none" '
        f'stroke="#8fd6bd" stroke-width="1.4" opacity="0.8"/>\n'
        f'<path d="M30 22 L 42 37 L 30 52 L 18 37 Z" fill="none" stroke="#8fd6bd" '
        f'stroke-width="1.6" opacity="0.8"/>\n'
        '</svg>\n')


def faces() -> dict[str, str]:
    """Every file name (without ``.svg``) and its SVG text."""
    out: dict[str, str] = {}
    t = 0
    for suit, draw in (("m", characters), ("p", dots), ("s", bamboo)):
        for rank in range(1, 10):
            out[f"{rank}{suit}"] = _frame(draw(rank), f"{NAMES_ZH[t]} {rank}{suit}")
            t += 1
    for rank in range(1, 8):
        out[f"{rank}z"] = _frame(honour(rank), f"{NAMES_ZH[t]} {rank}z")
        t += 1
    for rank in range(1, 9):
        out[f"{rank}f"] = _frame(flower(rank), f"{NAMES_ZH[t]} {rank}f")
        t += 1
    out["back"] = back()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT,
                        help="folder to write (default: %(default)s)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, svg in faces().items():
        (args.out / f"{name}.svg").write_text(svg, encoding="utf-8")
    print(f"wrote {len(faces())} tiles to {args.out}")


if __name__ == "__main__":
    main()
