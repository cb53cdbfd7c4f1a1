"""Draw the installed app's icons (static/icons/) from the red-dragon tile (中, tiles/7z.svg).

    python scripts/gen_icons.py

A dev tool, run once (Pillow, in the dev venv): the PNGs it writes are committed, so the
hall never needs Pillow at run time. It draws the tile's shape (its ivory face over a
darker base, as static/tiles/7z.svg) and the 中 glyph in the tile's red with a CJK font
(Noto Sans CJK Bold where installed, else 中 drawn as strokes), on the table's felt green:

* ``icon-192.png``, ``icon-512.png``: the tile on a rounded felt square (``purpose: any``);
* ``icon-maskable-512.png``: felt to the edges and the tile inside the central 80 % (the
  safe zone a launcher's mask never cuts, ``purpose: maskable``);
* ``icon.svg``: the same drawing as SVG (any size).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "src" / "laizi" / "server" / "static" / "icons"
FELT = "#1c5a45"  # style.css --felt
FACE = "#fbf8ef"  # tiles/7z.svg: the face, its edge, its base and the glyph's red
EDGE = "#b9ae93"
BASE = "#d8cfb8"
RED = "#c62828"
FONTS = ["/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
         "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"]
SCALE = 4  # drawn 4x and scaled down: smooth edges


def _font(px: int) -> ImageFont.FreeTypeFont | None:
    for path in FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, px, index=0)  # index 0: the SC face
    return None


def _zhong(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """The 中 glyph inside ``box`` (x0, y0, x1, y1): the font's, else strokes."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    font = _font(int(h * 0.8))
    if font is not None:
        draw.text(((x0 + x1) / 2, (y0 + y1) / 2), "中", fill=RED, font=font, anchor="mm")
        return
    stroke = max(2, int(w / 9))  # no CJK font: a box with a bar through it, as 中 is drawn
    draw.rectangle((x0 + w * 0.12, y0 + h * 0.3, x1 - w * 0.12, y0 + h * 0.68),
                   outline=RED, width=stroke)
    draw.rectangle((x0 + w / 2 - stroke / 2, y0 + h * 0.08, x0 + w / 2 + stroke / 2,
                    y1 - h * 0.06), fill=RED)


def _tile(draw: ImageDraw.ImageDraw, cx: float, cy: float, height: float) -> None:
    """The tile (3:4, as 7z.svg's 60x80) ``height`` tall, centred on (cx, cy)."""
    width = height * 0.75
    x0, y0 = cx - width / 2, cy - height / 2
    r = height * 7 / 80
    draw.rounded_rectangle((x0, y0, x0 + width, y0 + height), r, fill=BASE)
    draw.rounded_rectangle((x0, y0, x0 + width, y0 + height * 74 / 80), r, fill=FACE,
                           outline=EDGE, width=max(1, int(height / 80)))
    _zhong(draw, (x0 + width * 0.1, y0 + height * 0.08, x0 + width * 0.9,
                  y0 + height * 0.84))


def icon(size: int, maskable: bool) -> Image.Image:
    """The icon ``size`` pixels square: the tile on rounded felt, or (``maskable``) felt
    to the edges with the tile in the safe zone."""
    big = size * SCALE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=FELT)
        _tile(draw, big / 2, big / 2, big * 0.62)
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), big * 0.18, fill=FELT)
        _tile(draw, big / 2, big / 2, big * 0.8)
    return img.resize((size, size), Image.Resampling.LANCZOS)


SVG = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="512" \
height="512" role="img">
<title>laizi 赖子</title>
<rect width="100" height="100" rx="18" fill="{FELT}"/>
<rect x="20" y="10" width="60" height="80" rx="7" fill="{BASE}"/>
<rect x="20" y="10" width="60" height="74" rx="7" fill="{FACE}" stroke="{EDGE}"/>
<text x="50" y="47" font-family="'Noto Sans CJK SC','Source Han Sans SC','PingFang SC',\
'Microsoft YaHei',sans-serif" font-size="46" font-weight="700" fill="{RED}" \
text-anchor="middle" dominant-baseline="central">中</text>
</svg>
"""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    (OUT / "icon.svg").write_text(SVG, encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
