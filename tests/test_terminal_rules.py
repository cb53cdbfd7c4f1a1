"""``laizi play``: each variant's own rules behind ``?``, ``--hands`` meaning the same in
every variant, and why a complete hand may not win."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from laizi import tiles as T
from laizi.cli import build_parser, main
from laizi.engine.actions import Action
from laizi.table.driver import Decision
from laizi.table.table import Table
from laizi.ui.player import Screen, TerminalController, display_for
from test_terminal_input import play

VARIANTS = ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"]
OWN_WORDS = {"jingzhou": "荆州麻将 (Jingzhou, 3 players, 96 tiles",
             "huanghuang": "荆州晃晃 (huanghuang", "golden": "黄金麻将 (golden",
             "mcr": "国标麻将 (MCR", "taiwan": "台湾十六张 (Taiwan"}


def _help_shown(out: str) -> str:
    """What ``?`` printed: the lines after the first ``your choice…: ?``."""
    after = re.split(r"your choice[^\n]*: \?\n", out, maxsplit=1)[1]
    return after.split("your choice")[0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_question_mark_prints_the_variant_s_own_rules(variant: str) -> None:
    code, out = play([variant, "--seed", "1"], "?\nq\n")
    assert code == 0
    shown = _help_shown(out)
    assert OWN_WORDS[variant] in shown
    for other, words in OWN_WORDS.items():
        if other != variant:
            assert words not in shown
    assert "4z, 北" in shown and "q leaves" in shown  # how to answer, in every variant


def test_every_variant_has_rules_of_its_own() -> None:
    rules = {v: display_for(v).rules for v in VARIANTS}
    assert len(set(rules.values())) == len(VARIANTS)
    # facts each help must get right (docs/rules)
    assert "16 tiles each" in rules["taiwan"] and "no seven pairs" in rules["taiwan"]
    assert "120 tiles" in rules["huanghuang"] and "may be discarded" in rules["huanghuang"]
    assert "never be discarded" in rules["golden"] and "8 fan" in rules["golden"]
    assert "8 fan" in rules["mcr"] and "黄金牌" not in rules["mcr"]
    assert "开口" in rules["jingzhou"] and "2, 5 or 8" in rules["jingzhou"]


def _hand_rules(out: str) -> list[str]:
    return re.findall(r"(?m)^─* ?hand (\d+) ·", out)


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_hand_by_default_in_every_variant(variant: str) -> None:
    code, out = play([variant, "--auto", "--seed", "2"])
    assert code == 0 and _hand_rules(out) == ["1"]
    assert " · 1 hand" in out.splitlines()[0]
    code, out = play([variant, "--auto", "--seed", "2", "--hands", "1"])
    assert _hand_rules(out) == ["1"]


def test_hands_two_pauses_once_between_the_hands() -> None:
    code, out = play(["taiwan", "--seed", "2", "--hands", "2"])
    assert code == 0 and _hand_rules(out) == ["1", "2"]
    assert out.count("Enter for the next hand") == 1
    assert out.index("Enter for the next hand") < out.index("hand 2 ·")


def test_hands_all_is_the_whole_session() -> None:
    assert build_parser().parse_args(["play", "taiwan", "--hands", "all"]).hands is None
    _code, out = play(["golden", "--seed", "1", "--hands", "all"], "q\n")
    assert "a match of 16 hands" in out.splitlines()[0]
    _code, out = play(["taiwan", "--seed", "1", "--hands", "all"], "q\n")
    assert "one 将 (four 圈)" in out.splitlines()[0]


def test_hands_all_refused_where_it_would_never_end(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    assert main(["play", "jingzhou", "--auto", "--hands", "all"]) == 2
    assert "would never end" in capsys.readouterr().err


@pytest.mark.parametrize(("value", "message"), [("0", "at least 1"), ("some", "'all'")])
def test_bad_hands_are_refused(value: str, message: str,
                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["play", "taiwan", "--hands", value])
    assert exc.value.code == 2 and message in capsys.readouterr().err


# ---------------------------------------------------------------- why a hand cannot win


def _seat0_turn(variant: str, tiles: str, seed: int = 1) -> tuple[Table, Decision]:
    """A table at seat 0's turn whose concealed hand is ``tiles`` (the last one drawn)."""
    n = 3 if variant == "jingzhou" else 4
    table = Table(variant, None, ["you", *(f"bot {i}" for i in range(1, n))], seed=seed)
    game = table.start_hand()
    assert game.phase == "turn" and game.turn == 0
    ids = T.parse(tiles)
    game.hands[0][:] = T.to_counts(ids)
    view = game.view(0)
    view.update(hand=sorted(ids), drawn=ids[-1], phase="turn", turn=0)
    legal = tuple(Action("discard", 0, t) for t in sorted(set(ids)))
    return table, Decision(table, 0, "you", legal, _view=view)


def _screen_of(table: Table, variant: str) -> tuple[TerminalController, io.StringIO]:
    out = io.StringIO()
    screen = Screen(table, "you", display_for(variant), Console(file=out, width=100))
    return TerminalController(screen, io.StringIO("1\n")), out


@pytest.mark.parametrize("variant", ["mcr", "golden"])
def test_a_complete_hand_short_of_the_minimum_says_how_short(variant: str) -> None:
    table, decision = _seat0_turn(variant, "123m345p567s789s22z")
    why = display_for(variant).no_win(decision)
    assert why is not None and re.search(r"\b\d fan, 8 needed", why), why
    person, out = _screen_of(table, variant)
    person.decide(decision)
    assert re.search(r"cannot win: \d fan, 8 needed", out.getvalue())


def test_a_closed_jingzhou_hand_says_it_has_not_opened() -> None:
    table, decision = _seat0_turn("jingzhou", "234p345p567p789s55s", seed=2)
    game = table.game
    assert game is not None and game.wildcard not in T.parse("234p345p567p789s55s")
    why = display_for("jingzhou").no_win(decision)
    assert why is not None and "开口" in why


def test_no_note_when_the_hand_can_win_or_is_not_complete() -> None:
    _table, decision = _seat0_turn("mcr", "234m345p456s678s55z")
    assert display_for("mcr").no_win(decision) is None  # 11 fan: it may win
    _table, decision = _seat0_turn("mcr", "123m345p567s789s25z")
    assert display_for("mcr").no_win(decision) is None  # not complete


def test_an_opened_jingzhou_hand_without_a_258_pair_says_what_it_needs() -> None:
    from laizi.core.melds import Meld

    table, decision = _seat0_turn("jingzhou", "234p345p789s33s", seed=3)
    game = table.game
    assert game is not None and game.wildcard not in T.parse("234p345p789s33s567p")
    game.melds[0].append(Meld("chow", tuple(T.parse("567p")), 1, T.parse("7p")[0]))
    why = display_for("jingzhou").no_win(decision)
    assert why is not None and "屁胡 needs a pair of 2, 5 or 8" in why
