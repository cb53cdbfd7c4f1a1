"""``laizi score`` against mutated records: refused with one line, or settled only if the
mutant is still a record an independent check accepts — and never a traceback.

The seeds are every hand record the docs ship (``docs/examples/*.json`` and the JSON
examples of ``docs/hand-record.md``). Each mutation is drawn from a seeded generator:
delete or misspell a key, give a value another JSON type, flip or add a flag, alter,
add or drop a tile, change who won how. The independent check below is written from the
format's documentation, not from ``laizi.records``: it holds only conditions every valid
record meets (keys, types, tile totals and copies, a complete winning hand, facts
consistent with the melds), so a settled mutant that fails it was paid although wrong.
"""

from __future__ import annotations

import copy
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from laizi import tiles as T
from laizi.analysis import WinRules, is_win
from laizi.cli import main
from laizi.variants import get

ROOT = Path(__file__).resolve().parent.parent
SEATS = {"jingzhou": 3, "huanghuang": 4, "golden": 4, "mcr": 4, "taiwan": 4}
HAND_SIZE = {"jingzhou": 13, "huanghuang": 13, "golden": 13, "mcr": 13, "taiwan": 16}
TOP_KEYS = {"variant", "options", "dealer", "seats", "outcome", "winners", "how", "from",
            "tile", "after_kong", "seed", "indicators", "wildcard"}
WIN_KEYS = {"winners", "how", "from", "tile"}
SEAT_KEYS = {"concealed", "melds", "flowers"}
MELD_KEYS = {"kind", "tiles", "from", "claimed"}
SET_KINDS = {"chow", "pung", "kong", "added_kong", "concealed_kong"}
KONG_KINDS = {"kong", "added_kong", "concealed_kong", "red_dragon_kong", "laizi_kong"}
SPECIAL = {"jingzhou": {"red_dragon_kong", "laizi_kong"}}
HOWS = {"self_draw", "discard", "robbed_kong"}
HOW_WORDS = {"自摸": "self_draw", "zimo": "self_draw", "tsumo": "self_draw",
             "点炮": "discard", "放炮": "discard", "dianpao": "discard", "ron": "discard",
             "抢杠": "robbed_kong", "qianggang": "robbed_kong"}
KONG_DRAW_WORDS = {"杠开", "杠上开花", "gangkai"}
"""The other names docs/hand-record.md lists for ``how``."""
SECTION_KEYS = {
    "jingzhou": {"discarder_ready", "qingyise_feeder"},
    "huanghuang": {"laizi_discarded", "horses", "people"},
    "golden": {"last_tile", "last_copy"},
    "mcr": {"last_tile", "last_copy"},
    "taiwan": {"prevalent_wind", "dealer_streak", "declaration", "flower_win", "dead_hand",
               "false_win", "passed_win_since_declaring", "first_draw",
               "discarders_first_discard", "first_go_round_after_declaration", "last_tile",
               "flower_replacement"},
}
BOOL_FACTS = {"discarder_ready", "last_tile", "last_copy", "passed_win_since_declaring",
              "first_draw", "discarders_first_discard", "first_go_round_after_declaration",
              "flower_replacement"}
OPTION_TYPES: dict[str, dict[str, type]] = {
    "jingzhou": {"kou_kou_fan": bool, "reserve": int, "cap": int, "gold": int, "base": int},
    "huanghuang": {"base": int, "horses": list},
    "golden": {"minimum": int, "priority": str, "prevalent_wind": str},
    "mcr": {"minimum": int, "priority": str, "prevalent_wind": str},
    "taiwan": {"base": int, "tai_value": int, "eight_pairs": bool, "last_discard": bool,
               "flower_replacement_bloom": bool, "tai": dict, "preset": str},
}
WILD_FROM_INDICATOR = {"jingzhou", "huanghuang", "golden"}


class Invalid(Exception):
    """The independent check's verdict: not a valid record."""


def seeds() -> list[dict[str, Any]]:
    out = [json.loads(p.read_text("utf-8"))
           for p in sorted((ROOT / "docs/examples").glob("*.json"))]
    doc = (ROOT / "docs/hand-record.md").read_text("utf-8")
    for block in re.findall(r"```json\n(.*?)```", doc, re.S):
        data = json.loads(block)
        if isinstance(data, dict) and "variant" in data:
            out.append(data)
    return out


# ---------------------------------------------------------------- the independent check


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _tiles(v: Any) -> list[int]:
    if _is_int(v):
        v = [v]  # one tile id
    if isinstance(v, str):
        try:
            return T.parse(v, "mpsz")
        except T.NotationError:
            raise Invalid("tiles") from None
    if isinstance(v, list) and all(isinstance(x, str) or _is_int(x) for x in v):
        got = []
        for x in v:
            if isinstance(x, str):
                ts = _tiles(x)
                if len(ts) != 1:
                    raise Invalid("tile")
                got.append(ts[0])
            elif 0 <= x < T.NUM_TILE_IDS:
                got.append(x)
            else:
                raise Invalid("tile id")
        return got
    raise Invalid("tiles type")


def _seat(v: Any, n: int) -> int:
    if not _is_int(v) or not 0 <= v < n:
        raise Invalid("seat")
    return int(v)


def _wild_of(variant: str, indicators: list[int]) -> int | None:
    # The indicator → wildcard succession is a rule, not a validation: take the variant's.
    if variant not in WILD_FROM_INDICATOR:
        return None
    if len([t for t in indicators if t < T.NUM_KINDS]) != 1:
        raise Invalid("indicator")
    try:
        return get(variant).wildcard_for(indicators, get(variant).default_options())
    except ValueError:
        raise Invalid("indicator tile") from None


def check(data: Any) -> None:
    """Raise :class:`Invalid` unless ``data`` meets conditions every valid record meets."""
    if not isinstance(data, dict):
        raise Invalid("object")
    v = data.get("variant")
    if v not in SEATS:
        raise Invalid("variant")
    if set(data) - TOP_KEYS - {v}:
        raise Invalid("unknown key")
    n, size = SEATS[v], HAND_SIZE[v]
    opts = data.get("options")
    if opts is not None:
        if not isinstance(opts, dict) or set(opts) - set(OPTION_TYPES[v]):
            raise Invalid("options")
        for k, val in opts.items():
            kind = OPTION_TYPES[v][k]
            ok = _is_int(val) if kind is int else isinstance(val, kind)
            if not ok:
                raise Invalid(f"option {k}")
    _seat(data.get("dealer"), n)
    if "seed" in data and data["seed"] is not None and not _is_int(data["seed"]):
        raise Invalid("seed")
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != n:
        raise Invalid("seats")
    used = [0] * T.NUM_TILE_IDS
    indicators = _tiles(data.get("indicators", ""))
    for t in indicators:
        used[t] += 1
    wild = _wild_of(v, indicators)
    if data.get("wildcard") is not None and _tiles(data["wildcard"]) != [wild]:
        raise Invalid("wildcard")
    hands: list[list[int] | None] = []
    melds: list[list[tuple[str, list[int], int | None]]] = []
    for i, s in enumerate(seats):
        if not isinstance(s, dict) or set(s) - SEAT_KEYS:
            raise Invalid("seat keys")
        ms = s.get("melds", [])
        if not isinstance(ms, list):
            raise Invalid("melds")
        mine = []
        for m in ms:
            if not isinstance(m, dict) or set(m) - MELD_KEYS or not isinstance(m.get("kind"), str):
                raise Invalid("meld")
            kind = m["kind"]
            if kind not in SET_KINDS | SPECIAL.get(v, set()):
                raise Invalid("meld kind")
            ts = sorted(_tiles(m.get("tiles")))
            src = m.get("from")
            if src is not None:
                src = _seat(src, n)
                if src == i:
                    raise Invalid("own discard")
            if kind == "chow":
                if len(ts) != 3 or ts[0] >= 27 or ts != [ts[0], ts[0] + 1, ts[0] + 2] \
                        or ts[0] // 9 != ts[2] // 9 or src is None:
                    raise Invalid("chow")
            elif kind in SET_KINDS:
                if len(set(ts)) != 1 or len(ts) != (3 if kind == "pung" else 4) or ts[0] >= 34:
                    raise Invalid("set")
                if kind in ("pung", "kong") and src is None:
                    raise Invalid("from")
                if kind == "concealed_kong" and src is not None:
                    raise Invalid("concealed from")
            else:
                if len(ts) != 1 or src is not None:
                    raise Invalid("special kong")
            if m.get("claimed") is not None:
                c = _tiles(m["claimed"])
                if len(c) != 1 or c[0] not in ts or kind not in ("chow", "pung", "kong",
                                                                  "added_kong"):
                    raise Invalid("claimed")
            for t in ts:
                used[t] += 1
            mine.append((kind, ts, src))
        melds.append(mine)
        for t in _tiles(s.get("flowers", "")):
            if t < T.NUM_KINDS:
                raise Invalid("flower")
            used[t] += 1
        if s.get("concealed") is None:
            hands.append(None)
        else:
            c = _tiles(s["concealed"])
            if any(t >= T.NUM_KINDS for t in c):
                raise Invalid("flower in hand")
            if len(c) != size - 3 * sum(1 for k, _, _ in mine if k in SET_KINDS):
                raise Invalid("concealed total")
            for t in c:
                used[t] += 1
            hands.append(c)
    section = data.get(v, {})
    if not isinstance(section, dict) or set(section) - SECTION_KEYS[v]:
        raise Invalid("section")
    for k in BOOL_FACTS & set(section):
        if not isinstance(section[k], bool):
            raise Invalid(f"{k} type")
    if v == "huanghuang" and "laizi_discarded" in section \
            and (not _is_int(section["laizi_discarded"]) or section["laizi_discarded"] < 0):
        raise Invalid("laizi_discarded")
    if v == "taiwan" and "dealer_streak" in section \
            and (not _is_int(section["dealer_streak"]) or section["dealer_streak"] < 0):
        raise Invalid("dealer_streak")
    outcome = data.get("outcome")
    if outcome == "draw":
        if WIN_KEYS & set(data) or data.get("after_kong", False) is not False:
            raise Invalid("win field on a draw")
        _copies(used, v, data)
        return
    if outcome != "win":
        raise Invalid("outcome")
    winners = data.get("winners")
    if not isinstance(winners, list) or len(winners) != 1:
        raise Invalid("winners")  # every seed has one winner; a second is a mutation
    w = _seat(winners[0], n)
    how = data.get("how")
    after_kong = data.get("after_kong", False)
    if not isinstance(after_kong, bool):
        raise Invalid("after_kong type")
    if isinstance(how, str) and how in KONG_DRAW_WORDS:
        if "after_kong" in data and not after_kong:
            raise Invalid("杠开 without after_kong")
        how, after_kong = "self_draw", True
    how = HOW_WORDS.get(how, how) if isinstance(how, str) else how
    if how not in HOWS:
        raise Invalid("how")
    src = data.get("from")
    if how == "self_draw":
        if src is not None:
            raise Invalid("from on a self-draw")
    else:
        src = _seat(src, n)
        if src == w:
            raise Invalid("from winner")
    tile = _tiles(data.get("tile"))
    if len(tile) != 1 or tile[0] >= T.NUM_KINDS:
        raise Invalid("tile")
    win = tile[0]
    used[win] += 1
    _copies(used, v, data)
    hand = hands[w]
    if hand is None:
        raise Invalid("winner's tiles")
    if after_kong and (how != "self_draw" or not any(k in KONG_KINDS for k, _, _ in melds[w])):
        raise Invalid("after_kong without a kong")
    if how == "robbed_kong":
        assert isinstance(src, int)
        if not any(k == "pung" and ts[0] == win for k, ts, _ in melds[src]):
            raise Invalid("robbed kong without a pung")
        if section.get("last_tile") or section.get("last_copy"):
            raise Invalid("last tile of a robbed kong")
    if section.get("first_draw") and (how != "self_draw" or melds[w] or after_kong):
        raise Invalid("first draw")
    if section.get("discarders_first_discard") and how != "discard":
        raise Invalid("discarder's first discard")
    if "discarder_ready" in section and how != "discard":
        raise Invalid("discarder_ready")
    if section.get("flower_replacement") and (how != "self_draw" or not _tiles(
            seats[w].get("flowers", ""))):
        raise Invalid("flower replacement")
    if section.get("last_copy") and win in hand:
        raise Invalid("last copy with another copy in hand")
    if v == "taiwan" and "flower_win" in section:
        return  # 花胡: the flowers win, the tiles need not
    counts = T.to_counts([*hand, win])
    wilds = 0
    if wild is not None:
        wilds = counts[wild]
        counts[wild] = 0
    rules = WinRules(thirteen_orphans=True, knitted=v in ("golden", "mcr"))
    if not is_win(counts, wilds, rules) and not (v == "taiwan" and _eight_pairs(counts)):
        raise Invalid("not a winning hand")


def _eight_pairs(counts: list[int]) -> bool:
    return sum(c // 2 for c in counts) >= 8


ABSENT = {"jingzhou": set(range(0, 9)) | {27}, "huanghuang": set(range(27, 31))}
"""Tiles not in a variant's set (Jingzhou: no 万, no 东; 晃晃: no winds), flowers aside."""


def _copies(used: list[int], v: str, data: dict[str, Any]) -> None:
    for t, k in enumerate(used):
        limit = 1 if t >= T.NUM_KINDS else 4
        if t in ABSENT.get(v, ()) or (v in ABSENT and t >= T.NUM_KINDS):
            limit = 0
        if k > limit:
            raise Invalid("copies")


def test_the_seeds_pass_the_check() -> None:
    got = seeds()
    assert len(got) >= 10
    for data in got:
        check(data)


# ---------------------------------------------------------------- mutations


def _paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*at, i))
    return out


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


_OTHER_TYPES: list[Any] = ["false", "true", "1", 0, 1, 1.5, -1, 7, None, True, False, [],
                           {}, "x", [1], {"a": 1}]
_FLAGS = ["after_kong", "last_tile", "last_copy", "first_draw", "discarders_first_discard",
          "flower_replacement", "discarder_ready", "passed_win_since_declaring",
          "first_go_round_after_declaration"]


_WHO_HOW: dict[str, list[Any]] = {
    "how": ["self_draw", "discard", "robbed_kong", "杠开", "zimo", "抢杠"],
    "from": [0, 1, 2, 3, None],
    "dealer": [0, 1, 2, 3],
    "winners": [[0], [1], [2], [3], [0, 1]],
    "outcome": ["win", "draw"],
}


def _typo(key: str, rng: random.Random) -> str:
    if len(key) > 2 and rng.random() < 0.5:
        i = rng.randrange(len(key))
        return key[:i] + key[i + 1:]
    return key + rng.choice(["s", "_", "x"])


def _alter_tiles(text: str, rng: random.Random) -> str:
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if not digits:
        return text + "5m"
    i = rng.choice(digits)
    r = rng.random()
    if r < 0.4:
        return text[:i] + str(rng.randint(1, 9)) + text[i + 1:]
    if r < 0.7:
        return text[:i] + text[i + 1:]
    return text[:i] + str(rng.randint(1, 9)) + text[i:]


def mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for _ in range(rng.choice([1, 1, 1, 2])):
        paths = [p for p in _paths(out) if p]
        path = rng.choice(paths)
        parent = _get(out, path[:-1])
        key = path[-1]
        value = parent[key]
        kind = rng.randrange(8)
        if kind == 0:  # delete
            del parent[key]
        elif kind == 1 and isinstance(key, str):  # misspell / move to another section
            new = "jinzhou" if key == "jingzhou" else _typo(key, rng)
            parent[new] = parent.pop(key)
        elif kind == 2:  # another JSON type
            parent[key] = rng.choice([x for x in _OTHER_TYPES if type(x) is not type(value)])
        elif kind == 3:  # set a flag somewhere it may not belong
            section = out.setdefault(out.get("variant", "x"), {}) \
                if rng.random() < 0.6 and isinstance(out.get(out.get("variant", "x"), {}), dict) \
                else out
            if isinstance(section, dict):
                flag = rng.choice(_FLAGS)
                section[flag] = not bool(section.get(flag, False))
        elif kind == 4 and isinstance(value, str) and any(ch.isdigit() for ch in value):
            parent[key] = _alter_tiles(value, rng)
        elif kind == 5:  # who won how
            field = rng.choice(["how", "from", "dealer", "winners", "outcome"])
            out[field] = rng.choice(_WHO_HOW[field])
        elif kind == 6 and isinstance(value, bool):
            parent[key] = not value
        else:  # an unknown key next to this one
            target = parent if isinstance(parent, dict) else out
            target[rng.choice(["after_kng", "extra", "note", "jinzhou", "concealed_"])] = True
    return out


MUTANTS = 1500


def test_mutants_are_refused_in_one_line_or_are_valid(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    base = seeds()
    rng = random.Random(2024)
    refused = settled = 0
    wrongly_settled: list[str] = []
    for i in range(MUTANTS):
        mutant = mutate(base[i % len(base)], rng)
        text = json.dumps(mutant, ensure_ascii=False)
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        try:
            code = main(["score", "--json", "-"])
        except Exception as exc:  # a traceback is the failure this test exists for
            pytest.fail(f"mutant {i} raised {type(exc).__name__}: {exc}\n{text}")
        out, err = capsys.readouterr()
        if code == 0:
            settled += 1
            assert err == ""
            assert sum(json.loads(out)["net"]) == 0
            try:
                check(mutant)
            except Invalid as why:
                wrongly_settled.append(f"{why}: {text}")
        else:
            refused += 1
            assert code == 2, text
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("laizi score: "), (err, text)
            assert out == ""
    assert not wrongly_settled, f"{len(wrongly_settled)} settled although invalid:\n" + \
        "\n".join(wrongly_settled[:10])
    # Both outcomes occur: the mutations neither all break a record nor all keep it.
    assert refused > MUTANTS // 2 and settled > MUTANTS // 20, (refused, settled)
