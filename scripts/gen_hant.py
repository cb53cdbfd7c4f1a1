"""Write the browser's simplified → traditional Chinese map: ``static/js/hant.js``.

    python scripts/gen_hant.py            # write the file
    python scripts/gen_hant.py --check    # exit 1 when the committed file differs

The page shows Traditional Chinese (繁體, zh-Hant, for Taiwan's players) by converting its
simplified texts at render (``i18n.js``: ``t()``, the server's reason and refusal texts,
tile and variant names). Nothing is translated twice by hand: this script reads every
Chinese character the page can show — the client's own modules, and the server's Python
(settlement reasons, fan and 台 names, refusals, variant names and descriptors) — and
writes, with the ``zhconv`` library (a development dependency only: the hall never imports
it), a map of the characters that differ, and of the words whose characters alone convert
wrongly (phrases, Taiwan usage). :data:`CHAR_FIXES` and :data:`PHRASE_FIXES` say where
Taiwan's mahjong tables write otherwise than the library (台 stays 台, 吃 stays 吃 …).

``tests/test_hant_js.py`` fails when the committed file is stale (a key added to
``i18n.js`` with a character the map lacks, for instance): run this script again.
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

from zhconv import convert  # type: ignore[import-untyped]

# generated.py is beside this file; a test loads this file without scripts/ on the path.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from generated import write_or_check

ROOT = pathlib.Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "laizi" / "server" / "static" / "js"
OUT = STATIC / "hant.js"
GENERATED = ("hant.js", "protocol.js")
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
TARGET = "zh-tw"
"""zhconv's Taiwan variant: traditional characters and Taiwan's words (連結, 預設)."""

CHAR_FIXES: dict[str, str] = {
    "台": "台",  # 台 (a Taiwan scoring unit, 台灣) is written 台, not 臺
    "吃": "吃",  # 吃 (chow), never 喫
    "杠": "槓",  # 槓 (kong)
    "胡": "胡",  # 胡 / 胡牌 as the tables write it
    "着": "著",
    "里": "裡",
    "钟": "鐘",  # 時鐘 (the clock), not the surname 鍾
    "干": "乾",  # 乾淨, never 幹
    "么": "麼",  # 什麼 (幺 of 幺九 is its own character)
    "只": "只",  # 只 (only); no 一只 in the texts
    "面": "面",
    "发": "發",  # 发牌, 发财 (中发白), never 髮
    "账": "帳",
    "幺": "幺",  # 幺九, never 么
}
"""Characters whose one traditional form on Taiwan's tables is not the library's."""

PHRASE_FIXES: dict[str, str] = {
    "台湾": "台灣",
    "麻将": "麻將",
    "听牌": "聽牌",
    "一发": "一發",
    "发财": "發財",
    "复制": "複製",
    "重复": "重複",
    "链接": "連結",
}
"""Words written otherwise than their characters one by one (kept when the library's
conversion of the text they are in disagrees)."""


def sources() -> list[pathlib.Path]:
    """Every file whose Chinese the page may show: the client's modules (but the generated
    ones) and the server's Python."""
    js = [p for p in sorted(STATIC.glob("*.js")) if p.name not in GENERATED]
    py = sorted((ROOT / "src" / "laizi").rglob("*.py"))
    return js + py


def _fix(simplified: str, traditional: str) -> str:
    """The library's traditional text with :data:`CHAR_FIXES` applied where it kept one
    character for one (a longer or shorter word, 伺服器, is left as it is)."""
    if len(traditional) != len(simplified):
        return traditional
    return "".join(CHAR_FIXES.get(s, t) for s, t in zip(simplified, traditional, strict=True))


def build(texts: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The character map and the phrase map for ``texts``."""
    runs = sorted({run for text in texts for run in HAN.findall(text)})
    chars: dict[str, str] = {}
    for c in sorted({c for run in runs for c in run}):
        t = CHAR_FIXES.get(c) or convert(c, TARGET)
        if t != c and len(t) == 1:
            chars[c] = t
    phrases = {s: t for s, t in PHRASE_FIXES.items() if any(s in run for run in runs)}
    for run in runs:
        whole = _fix(run, convert(run, TARGET))
        one_by_one = to_hant(run, chars, phrases)
        if whole != one_by_one:
            phrases.update(_words(run, whole, one_by_one))
    return chars, dict(sorted(phrases.items()))


def to_hant(text: str, chars: dict[str, str], phrases: dict[str, str]) -> str:
    """``text`` converted as the page converts it (``i18n.js``): at each place the longest
    phrase that starts there, else the character."""
    out, i = [], 0
    longest = max((len(p) for p in phrases), default=0)
    while i < len(text):
        for n in range(min(longest, len(text) - i), 1, -1):
            if text[i:i + n] in phrases:
                out.append(phrases[text[i:i + n]])
                i += n
                break
        else:
            out.append(chars.get(text[i], text[i]))
            i += 1
    return "".join(out)


def _words(run: str, whole: str, one_by_one: str) -> dict[str, str]:
    """The shortest pieces of ``run`` where its whole conversion differs from its
    characters' (two characters around each difference; the whole run when the library
    changed its length)."""
    if len(whole) != len(run):
        return {run: whole}
    out: dict[str, str] = {}
    for i, (a, b) in enumerate(zip(whole, one_by_one, strict=True)):
        if a != b:
            lo, hi = max(0, i - 1), min(len(run), i + 2)
            out[run[lo:hi]] = whole[lo:hi]
    return out


def render() -> str:
    texts = [p.read_text(encoding="utf-8") for p in sources()]
    chars, phrases = build(texts)
    return "\n".join([
        "// GENERATED by scripts/gen_hant.py (zhconv, zh-tw, with Taiwan's mahjong words): do",
        "// not edit. Run `python scripts/gen_hant.py` after adding Chinese text to the client",
        "// or the server (a test fails while this file is stale). Simplified → traditional:",
        "// the characters that differ, and the words whose characters alone convert wrongly.",
        "",
        "/** @type {Record<string, string>} */",
        f"export const CHARS = {json.dumps(chars, ensure_ascii=False)};",
        "",
        "/** @type {Record<string, string>} */",
        f"export const PHRASES = {json.dumps(phrases, ensure_ascii=False, indent=0)};",
        "",
    ])


def main(argv: list[str] | None = None) -> int:
    return write_or_check(argv, script=__file__, doc=__doc__, out=OUT, root=ROOT, render=render)

if __name__ == "__main__":
    raise SystemExit(main())
