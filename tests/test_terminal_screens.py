"""The screens of ``laizi play`` at 80 and 160 columns: nothing wraps or is cut, every hand
is shown at the end, one name per person in correct English, each claim said once, the
winds of the 81-fan games."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from laizi import tiles as T
from laizi.engine import Game
from laizi.ui.player import display_for
from laizi.ui.terminal import Flow, board
from laizi.ui.words import name_seats, plural, possessive, says
from test_terminal_input import play

VARIANTS = ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"]
WIDTHS = [80, 160]
_TOKEN = re.compile(r"(?<=\S)·(\S*)")
"""A tile on the board: 五筒·5p (its MPSZ half must be whole)."""


def _entries(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()]


def check_fits(out: str, width: int) -> None:
    """No line wider than the screen, nothing cut with "…", every tile whole."""
    for line in out.splitlines():
        assert cell_len(line) <= width, f"{cell_len(line)} > {width}: {line!r}"
        assert "…" not in line, line
        for tail in _TOKEN.findall(line):
            assert re.fullmatch(r"[1-9][mpszf]\*?", tail), f"a cut tile in {line!r}"


def _reasons_whole(out: str, log: Path) -> None:
    """Every reason of every payment is printed whole, on one line (names for seats)."""
    lines = out.splitlines()
    entries = _entries(log)
    for i, e in enumerate(entries):
        if e["type"] != "hand_end":
            continue
        hand = next(h for h in reversed(entries[:i]) if h["type"] == "hand")
        names = hand["seats"]
        for p in e["payments"]:
            for r in p["reasons"]:
                if r["code"] == "horse":
                    continue  # the room's own lines name the horses
                text = name_seats(r["zh"], names)
                assert any(text in line for line in lines), text


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_watched_table_fits_the_terminal(variant: str, width: int, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    log = tmp_path / "t.jsonl"
    code, out = play([variant, "--auto", "--seed", "3", "--hands", "2", "--save", str(log)])
    assert code == 0
    check_fits(out, width)
    _reasons_whole(out, log)
    assert re.search(r"(?m)^─+ hand 2 ", out)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_person_s_screen_fits_the_terminal(variant: str, width: int, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    log = tmp_path / "t.jsonl"
    code, out = play([variant, "--seed", "4", "--save", str(log)])
    assert code == 0 and "your choice: " in out
    check_fits(out, width)
    _reasons_whole(out, log)


def test_a_wide_terminal_puts_a_hand_on_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    _code, out = play(["taiwan", "--seed", "4"], "q\n")
    hand_line = next(line for line in out.splitlines() if line.startswith("▶ you"))
    assert hand_line.count("·") >= 17  # the dealer's 17 tiles on one line


def test_flow_breaks_between_pieces_only() -> None:
    tiles = [Text(f"{T.name(t, 'chinese')}·{T.name(t, 'mpsz')}") for t in range(14)]
    for width in (20, 33, 80):
        lines = Flow(tiles, "  you (庄) · score 0  ").lines(width)
        assert all(line.cell_len <= width for line in lines)
        words = " ".join(line.plain for line in lines).split()
        assert [w for w in words if "·" in w and w != "·"] == [t.plain for t in tiles]
    # a reason longer than the line is broken at its spaces, never cut
    long = Text("包牌 (全求人): bot 2 打出胡牌时未听牌 " * 3)
    lines = Flow([long], "  bot 1 pays you 40: ", sep=" · ").lines(30)
    assert all(line.cell_len <= 30 for line in lines)
    assert " ".join(" ".join(line.plain.split()) for line in lines).count("全求人") == 3


def _hand_end(log: Path) -> dict[str, Any]:
    return next(e for e in _entries(log) if e["type"] == "hand_end")


def _one_line(out: str) -> str:
    return " ".join(out.split())


def _tiles(text: str) -> str:
    return " ".join(f"{T.name(t, 'chinese')}·{T.name(t, 'mpsz')}" for t in
                    sorted(T.parse(text)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_end_of_a_won_hand_shows_every_hand(variant: str, tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    for seed in range(20):
        _code, out = play([variant, "--auto", "--seed", str(seed), "--save", str(log)])
        end = _hand_end(log)
        if end["record"]["outcome"] == "win":
            break
    record = end["record"]
    flat = _one_line(out)
    winner = record["winners"][0]
    win = T.parse_tile(record["tile"])
    seats = record["seats"]
    # the winner's concealed tiles, then 胡 and the winning tile
    assert f"{_tiles(seats[winner]['concealed'])} 胡 {T.name(win)}·{T.name(win, 'mpsz')}" \
        in flat.replace("*", "")
    for s, seat in enumerate(seats):
        if s != winner and seat["concealed"]:
            assert _tiles(seat["concealed"]) in flat.replace("*", "")
    # the final board comes after the last move, before the payments
    board_at = out.rindex("wall ")
    assert out.rindex("胡 ") > board_at and out.index(" pay", board_at) > board_at


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_drawn_hand_shows_every_hand_and_is_announced_once(variant: str,
                                                             tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    for seed in range(60):
        _code, out = play([variant, "--auto", "--bots", "random", "--seed", str(seed),
                          "--save", str(log)])
        end = _hand_end(log)
        if end["record"]["outcome"] == "draw":
            break
    else:
        pytest.fail(f"no drawn {variant} hand in 60 seeds")
    flat = _one_line(out).replace("*", "")
    for seat in end["record"]["seats"]:
        assert _tiles(seat["concealed"]) in flat
    assert "胡 " not in out
    words = ["黄庄", "荒庄", "流局"]
    assert sum(out.count(w) for w in words) == 1, [w for w in words if w in out]
    assert display_for(variant).draw_text.split(" ")[0] in out


_BAD_ENGLISH = re.compile(r"\byou (takes|wins|pays|draws|adds|discards|sets|receives)\b|"
                          r"\byou's\b|\b1 (concealed tiles|times|hands)\b|\bbot\d|\d号位|"
                          r"\bseat \d+ (wins|pays|takes)|\bafter 1 hands\b")


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_name_per_person_and_correct_english(variant: str, tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    argv = [variant, "--seed", "3", "--hands", "3", "--save", str(log)]
    if variant == "huanghuang":
        argv += ["--people", "6"]
    code, out = play(argv)
    assert code == 0
    assert not _BAD_ENGLISH.search(out), _BAD_ENGLISH.search(out)
    people = set(_entries(log)[0]["people"])
    assert people == {"you", *(f"bot {i}" for i in range(1, len(people)))}
    # nobody appears by another name (a seat number as a name, "you" as "bot 0")
    assert "bot 0" not in out and not re.search(r"\bseat \d+:", out)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_claim_is_announced_once(variant: str, tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    _code, out = play([variant, "--auto", "--seed", "5", "--hands", "2", "--save", str(log)])
    lines = out.splitlines()
    claims = [ln for ln in lines if re.search(r" takes? (吃|碰|明杠) ", ln)]
    # one line per meld claimed (taken from someone), none for the claim actions
    melds = sum(1 for e in _entries(log) if e["type"] == "hand_end"
                for s in e["record"]["seats"]
                for m in s["melds"] if m["kind"] in ("chow", "pung", "kong", "added_kong"))
    assert len(claims) == melds and melds > 0
    assert not any(re.search(r": (吃 chow|碰 pung|杠 kong) ", ln) for ln in lines)


def test_words_agree_with_the_name() -> None:
    assert says("you", "win") == "you win" and says("bot 1", "win") == "bot 1 wins"
    assert says("bot 2", "pass") == "bot 2 passes" and says("you", "pass") == "you pass"
    assert says("bot 1", "set aside") == "bot 1 sets aside"
    assert possessive("you") == "your" and possessive("bot 2") == "bot 2's"
    assert plural(1, "concealed tile") == "1 concealed tile"
    assert plural(13, "concealed tile") == "13 concealed tiles"
    assert plural(1, "time") == "1 time" and plural(2, "time") == "2 times"
    names = ["you", "bot 1", "bot 2"]
    assert name_seats("seat 0 wins 屁胡 (软胡), receives 16", names) == \
        "you win 屁胡 (软胡), receive 16"
    assert name_seats("seat 1 wins on seat 0's discard", names) == \
        "bot 1 wins on your discard"
    assert name_seats("0号位翻倍: 庄家 +1", names) == "you 翻倍: 庄家 +1"
    assert name_seats("代付2号位的一条 40:", names) == "代付 bot 2 的一条 40:"


def test_one_concealed_tile_is_singular() -> None:
    view = Game("jingzhou", seed=3).view(0)
    view["hand_sizes"] = [14, 1, 13]
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(board(view, ["you", "bot 1", "bot 2"]))
    text = console.export_text()
    assert "1 concealed tile\n" in text and "13 concealed tiles" in text


@pytest.mark.parametrize("variant", ["golden", "mcr"])
def test_golden_and_mcr_show_seat_and_prevalent_winds(variant: str) -> None:
    _code, out = play([variant, "--seed", "3", "--dealer", "1"], "q\n")
    board_lines = out.splitlines()
    title = next(line for line in board_lines if line.startswith(variant))
    assert "东圈" in title
    # the dealer (seat 1) sits 东, you (seat 0) 北
    assert any(line.startswith("  bot 1 (庄) 东家") for line in board_lines)
    assert any(line.startswith("▶ you 北家") or line.startswith("  you 北家")
               for line in board_lines)
    # the fifth hand of a match is in the 南圈
    _code, out = play([variant, "--auto", "--seed", "3", "--hands", "5"])
    assert "hand 5 · dealer" in out and re.search(r"(?m)^.* · 南圈 · wall", out)
