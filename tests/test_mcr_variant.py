"""mcr (国标麻将) on the engine: 抢杠 for exactly the tile, 杠上开花, situational flags,
the match (4 rounds of 4 hands with winds), ``laizi score`` on golden/mcr records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from laizi import tiles as T
from laizi.bots.simple import SimpleBot
from laizi.engine import CLAIM, ROB, Action, Game
from laizi.engine.walls import arrange_wall
from laizi.settlement import net
from laizi.table.driver import BotController, play
from laizi.table.table import Table
from laizi.variants import get
from laizi.variants._gb_common import MATCH_HANDS, GBOptions, schedule
from laizi.variants._gb_variant import GBVariant, visible_copies

MCR = get("mcr")


def tile(text: str) -> int:
    return T.parse_tile(text, "mpsz")


def _pass_all(g: Game) -> None:
    if g.phase in (CLAIM, ROB):
        for s in g.to_act():
            g.apply(Action("pass", s))


def _kong_game(**opts: Any) -> Game:
    """Dealer 0 discards 3s; seat 1 pungs it and later draws the 4th 3s; seat 3 waits on
    3s/6s; seat 2 waits on 5z only."""
    hands = ["3s 1m9m 1p9p 9s 4567z 7m 7p 1s 2m", "33s 567m 567p 567s 99s",
             "111m 222p 333p 444p 5z", "234m 456p 678s 45s 88p"]
    wall = arrange_wall(MCR, [T.parse(h, "mpsz") for h in hands],
                        T.parse("1z 2z 3z 3s", "mpsz"), T.parse("9s", "mpsz"),
                        options=GBOptions(**opts))
    g = Game(MCR, GBOptions(**opts), seed=0, wall=wall)
    g.apply(Action("discard", 0, tile("3s")))
    assert set(g.to_act()) == {1, 2, 3}  # every other seat is asked
    assert g.legal_actions(2) == (Action("pass", 2),)  # seat 2 waits on 5z only
    assert Action("win", 3, tile("3s")) in g.legal_actions(3)
    g.apply(Action("pass", 3))  # 过水 until seat 3's next draw
    g.apply(Action("pass", 2))
    g.apply(Action("pung", 1, tile("3s"), (tile("3s"),) * 3))
    g.apply(Action("discard", 1, tile("9s")))
    _pass_all(g)
    for seat, t in ((2, "1z"), (3, "2z"), (0, "3z")):
        assert g.turn == seat
        g.apply(Action("discard", seat, tile(t)))
        _pass_all(g)
    assert g.turn == 1 and g.last_tile == tile("3s")
    return g


def test_robbing_an_added_kong_needs_readiness_for_exactly_that_tile() -> None:
    g = _kong_game()
    assert visible_copies(g, tile("3s")) == 3  # the pung
    g.apply(Action("added_kong", 1, tile("3s")))
    assert g.phase == ROB
    assert g.to_act() == [2, 3, 0]  # every other seat is asked ...
    assert Action("win", 3, tile("3s")) in g.legal_actions(3)
    # ... but seat 2 is ready for 5z only, and seat 0 not at all: they may only pass
    assert g.legal_actions(2) == (Action("pass", 2),)
    assert g.legal_actions(0) == (Action("pass", 0),)
    g.apply(Action("win", 3, tile("3s")))
    assert g.record is None
    _pass_all(g)
    rec = g.record
    assert rec is not None and rec.how == "robbed_kong" and rec.source == 1
    assert rec.extra == {"last_tile": False, "last_copy": False}  # 抢杠和不计和绝张
    assert isinstance(MCR, GBVariant)
    fan = MCR.fan(rec)
    assert fan.counts().get("robbing_the_kong") == 1 and "last_tile" not in fan.counts()
    v = fan.total
    # The robbed seat pays as the discarder; its kong never happened (still a pung).
    assert {p.payer: p.amount for p in g.payments} == {1: 8 + v, 0: 8, 2: 8}
    assert [m.kind for m in rec.seats[1].melds] == ["pung"]


def test_declined_rob_completes_the_kong_and_the_replacement_wins_gang_shang_kai_hua() -> None:
    g = _kong_game()
    g.apply(Action("added_kong", 1, tile("3s")))
    g.apply(Action("pass", 3))
    assert g.phase == ROB  # until every asked seat passed
    _pass_all(g)
    assert g.turn == 1 and g.last_tile == tile("9s") and g.after_kong
    assert [m.kind for m in g.melds[1]] == ["added_kong"]
    assert Action("win", 1, tile("9s")) in g.legal_actions(1)
    g.apply(Action("win", 1, tile("9s")))
    rec = g.record
    assert rec is not None and rec.after_kong and rec.how == "self_draw"
    assert isinstance(MCR, GBVariant)
    fan = MCR.fan(rec).counts()
    assert fan.get("out_with_replacement_tile") == 1 and "self_drawn" not in fan
    v = MCR.fan(rec).total
    assert {p.payer: p.amount for p in g.payments} == {0: 8 + v, 2: 8 + v, 3: 8 + v}


def test_last_tile_and_last_copy_flags_follow_the_table() -> None:
    g = _kong_game()
    extra = GBVariant._extra(g, "self_draw", tile("3s"), in_pool=False)
    assert extra == {"last_tile": False, "last_copy": True}  # three 3s in the pung
    g.head = g.tail  # as if the live wall had just run out (the flag reads the count)
    assert GBVariant._extra(g, "self_draw", tile("2m"), in_pool=False)["last_tile"]
    # During a claim the discard itself lies in the pool and is not an "other" copy.
    assert GBVariant._extra(g, "discard", tile("1z"), in_pool=True)["last_copy"] is False


def test_schedule_of_a_match() -> None:
    got = [schedule(k) for k in range(MATCH_HANDS)]
    assert [d for d, _ in got] == [0, 1, 2, 3] * 4
    assert "".join(w for _, w in got) == "EEEESSSSWWWWNNNN"


def test_match_of_sixteen_hands_rotates_dealer_and_winds() -> None:
    table = Table(MCR, GBOptions(), seed=11)
    records = []
    assert table.max_hands == MATCH_HANDS
    play(table, [BotController(SimpleBot()) for _ in range(4)],
         after_hand=lambda t: records.append(t.game.record if t.game else None))
    assert table.over and table.number == MATCH_HANDS == len(records)
    hands = [e for e in table.log if e["type"] == "hand"]
    ends = [e for e in table.log if e["type"] == "hand_end"]
    assert [h["dealer"] for h in hands] == [k % 4 for k in range(16)]
    winds = "".join(r.options.prevalent_wind for r in records)
    assert winds == "EEEESSSSWWWWNNNN"
    assert sum(table.ledger.values()) == 0
    assert table.ledger == {p: sum(e["net"][p] for e in ends) for p in table.people}
    for r in records:  # the dealer sits 东 in every hand's description
        if r.outcome == "win" and r.winners[0] == r.dealer:
            assert "门风 东" in MCR.describe(r)


def test_laizi_score_settles_golden_and_mcr_records(tmp_path: Path) -> None:
    g = _kong_game()
    g.apply(Action("added_kong", 1, tile("3s")))
    g.apply(Action("win", 3, tile("3s")))
    _pass_all(g)
    assert g.record is not None
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(g.log[-1]["record"]), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "laizi", "score", str(path), "--json"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["net"] == net(g.payments, 4)
    bad = dict(g.log[-1]["record"], tile="5z")
    path.write_text(json.dumps(bad), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "laizi", "score", str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "invalid hand record" in out.stderr


def test_hand_record_doc_examples_settle_as_documented() -> None:
    import re

    from laizi.records import record_from_json

    text = Path(__file__).resolve().parents[1].joinpath("docs", "hand-record.md").read_text(
        encoding="utf-8")
    section = text[text.index("## golden and mcr sections"):]
    blocks = re.findall(r"```json\n(.*?)\n```", section, re.S)
    nets = re.findall(r"net `(\[[-0-9, ]+\])`", section)
    assert len(blocks) == len(nets) == 2
    for block, expected in zip(blocks, nets, strict=True):
        record = record_from_json(json.loads(block))
        pays = get(record.variant).settle(record)
        assert net(pays, 4) == json.loads(expected)


def test_play_front_end_shows_rules_winds_and_fan_table() -> None:
    from laizi.ui.gb import header

    lines = header("golden", 8, 16, 0)
    assert any("黄金牌" in x and "never be discarded" in x for x in lines)
    assert lines[-1].split()[1:] == ["1:东圈/庄0", "2:东圈/庄1", "3:东圈/庄2", "4:东圈/庄3",
                                     "5:南圈/庄0", "6:南圈/庄1", "7:南圈/庄2", "8:南圈/庄3",
                                     "9:西圈/庄0", "10:西圈/庄1", "11:西圈/庄2", "12:西圈/庄3",
                                     "13:北圈/庄0", "14:北圈/庄1", "15:北圈/庄2", "16:北圈/庄3"]
    assert not any("黄金牌" in x for x in header("mcr", 8, 1, 0))
    out = subprocess.run([sys.executable, "-m", "laizi", "play", "golden", "--auto",
                          "--seed", "4"], capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert "黄金牌" in out.stdout and "门风" in out.stdout and "total" in out.stdout


def test_score_record_cache_answers_like_the_calculator() -> None:
    """score_record keeps its answers; a kept answer must be what the calculator says
    for that record, and a record differing in any input must not reuse it."""
    import dataclasses

    from laizi.scoring.mcr import score_hand
    from laizi.variants import _gb_scoring as gbs

    checked = 0
    for variant in ("golden", "mcr"):
        for seed in range(12):
            game = Game(variant, seed=seed)
            bots = [SimpleBot() for _ in range(game.n)]
            while not game.over:
                s = game.to_act()[0]
                game.apply(bots[s].choose(game.view(s), game.legal_actions(s)))
            record = game.record
            if record is None or not record.winners:
                continue
            w = record.winners[0]
            for rec in (record, dataclasses.replace(record, after_kong=not record.after_kong),
                        dataclasses.replace(record, dealer=(record.dealer + 1) % game.n)):
                first = gbs.score_record(rec, w)
                again = gbs.score_record(rec, w)
                assert again is first  # kept
                concealed = rec.hand_of(w)
                concealed.remove(rec.win_tile)
                concealed.append(rec.win_tile)
                golden = rec.wildcard
                direct = score_hand(concealed, gbs.mcr_melds(rec.seats[w].melds),
                                    rec.win_tile, gbs.win_context(rec, w),
                                    golden=rec.hand_of(w).count(golden) if golden is not None
                                    else 0, golden_face=golden)
                assert first == direct
                checked += 1
    assert checked >= 9


def test_judging_a_win_from_the_winner_alone_is_scoring_its_record() -> None:
    """The engine judges every win it offers from the winner's part of the state (its
    tiles, melds, flowers and the moment); that must be exactly the fan of the hand
    record the win would write, scored as ``laizi score`` scores it."""
    import dataclasses
    import random

    from laizi.bots.greedy import GreedyBot
    from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW
    from laizi.variants._gb_scoring import score_record

    checked = 0
    for variant in ("mcr", "golden"):
        v = get(variant)
        assert isinstance(v, GBVariant)
        for seed in range(8):
            g = Game(variant, seed=seed)
            bots = [GreedyBot(s) for s in range(4)]
            rng = random.Random(seed)
            while not g.over:
                cases = []
                if g.phase == "turn" and g.turn_kind != "claimed" and g.last_tile is not None:
                    cases.append((g.turn, g.last_tile, SELF_DRAW))
                elif g.phase in (CLAIM, ROB) and g.last_tile is not None:
                    how = DISCARD_WIN if g.phase == CLAIM else ROBBED_KONG
                    cases += [(s, g.last_tile, how) for s in range(4) if s != g.turn]
                for seat, t, how in cases:
                    counts = list(g.hands[seat])
                    if how != SELF_DRAW:
                        counts[t] += 1
                    if sum(counts) % 3 != 2 or max(counts) > 4:
                        continue
                    extra = v._extra(g, how, t, in_pool=how == DISCARD_WIN)
                    source = None if how == SELF_DRAW else g.turn
                    record = dataclasses.replace(g.make_record([seat], how, source, t),
                                                 extra=extra)
                    want = score_record(record, seat)
                    assert v._judge(g, seat, t, how, extra) == want
                    checked += 1
                s = g.to_act()[0]
                legal = g.legal_actions(s)
                a = bots[s].choose(g.view(s), legal) if rng.random() < 0.8 else rng.choice(legal)
                g.apply(a)
    assert checked > 1000
