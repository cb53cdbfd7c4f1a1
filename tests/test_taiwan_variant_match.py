"""Taiwan 将 at the table, hand records (诈胡 / 相公 through ``laizi score``) and a long seeded
run holding the engine invariants after every event."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from laizi import tiles as T
from laizi.cli import main
from laizi.core.records import RecordError, record_to_json
from laizi.engine import Action, Game, replay, state_json
from laizi.engine.log import dumps, loads
from laizi.errors import TableError
from laizi.records import record_from_json
from laizi.table.driver import BotController, play, play_hand
from laizi.table.table import Table
from laizi.variants import get
from laizi.variants.taiwan_records import result_of

V = get("taiwan")


class Passive:
    """Never wins, never claims: discards the drawn tile (every hand is drawn)."""

    name = "passive"

    def choose(self, view: dict[str, Any], acts: list[Action]) -> Action:
        for a in acts:
            if a.type == "pass":
                return a
        drawn = view["drawn"]
        for a in acts:
            if a.type == "discard" and a.tile == drawn:
                return a
        return next(a for a in acts if a.type == "discard")


class Eager:
    """Wins (and flower-wins, declares) whenever it may, otherwise plays at random."""

    name = "eager"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], acts: list[Action]) -> Action:
        for kind in ("win", "flower_win", "rob_flower", "declare"):
            for a in acts:
                if a.type == kind:
                    return a
        return self.rng.choice(acts)


# ------------------------------------------------------------------ the 将 at the table


def _hands(t: Table) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(hand, hand_end) entries of the table's log, in order."""
    starts = [e for e in t.log if e["type"] == "hand"]
    ends = [e for e in t.log if e["type"] == "hand_end"]
    return list(zip(starts, ends, strict=False))


def test_dealer_streak_3_is_paid_through_the_match() -> None:
    t = Table("taiwan", seed=11, dealer=1)
    passive = [BotController(Passive())] * 4
    for n in range(3):
        assert t.state.dealer_streak == n
        play(t, passive, hands=1)
        hand, end = _hands(t)[-1]
        assert end["record"]["outcome"] == "draw" and hand["dealer"] == 1
    assert t.state.dealer_streak == 3 and t.dealer == 1
    from laizi.variants.taiwan_bot import TaiwanBot

    eager = [BotController(TaiwanBot())] * 4
    while True:
        streak = t.state.dealer_streak
        game = t.start_hand()
        assert game.context == {"prevalent_wind": 0, "dealer_streak": streak}
        play_hand(t, eager)
        record = game.record
        assert record is not None
        if record.outcome == "win":
            break
    assert streak >= 3
    hand, end = _hands(t)[-1]
    assert hand["context"] == {"prevalent_wind": 0, "dealer_streak": streak}
    result = result_of(record)
    assert result.dealer_tai == 1 + 2 * streak
    for p in game.payments:
        with_dealer = 1 in (p.payer, p.payee)
        texts = [r.text() for r in p.reasons]
        assert (f"连{streak}拉{streak} {2 * streak}台" in texts) == with_dealer
        tai = result.flower_tai + result.tai + (result.dealer_tai if with_dealer else 0)
        if record.extra.get("flower_win") is None:
            assert p.amount == 100 + tai * 20


def test_a_full_jiang_rotates_the_deal_through_four_rounds() -> None:
    from laizi.variants.taiwan_bot import TaiwanBot

    t = Table("taiwan", seed=3, dealer=2)
    bots: list[Any] = [TaiwanBot(), TaiwanBot(declare=False), TaiwanBot(), Eager(3)]
    play(t, [BotController(b) for b in bots])
    assert t.over and t.state.passes == 16 and t.state.prevalent_wind == 4
    dealer, streak, wind, passes = 2, 0, 0, 0
    hands = _hands(t)
    assert len(hands) == t.number
    for hand, end in hands:
        ctx = hand["context"]
        assert (hand["dealer"], ctx["dealer_streak"], ctx["prevalent_wind"]) == (
            dealer, streak, wind)
        record = end["record"]
        if record["outcome"] == "draw" or dealer in record["winners"]:
            streak += 1  # 连庄
        else:
            dealer, streak, passes = (dealer + 1) % 4, 0, passes + 1
            wind = passes // 4
        assert end["dealer"] == dealer
    assert dealer == 2 == t.dealer  # the deal came back to the first dealer after four 圈
    assert sum(t.ledger.values()) == 0
    assert t.ledger == {p: sum(end["net"][p] for _, end in hands) for p in t.people}
    with pytest.raises(TableError, match="over"):
        t.start_hand()
    json.dumps(t.to_json())
    t.close()
    assert Table.from_log(t.dumps().splitlines()).to_json() == t.to_json()


# ------------------------------------------------------------------ records and laizi score


def _score(tmp_path: Path, record: dict[str, Any], capsys: pytest.CaptureFixture[str]
           ) -> tuple[int, Any, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    code = main(["score", str(path), "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else None, err


def _seats(**given: dict[str, Any]) -> list[dict[str, Any]]:
    return [given.get(f"s{i}", {}) for i in range(4)]


FALSE_WIN = {
    "variant": "taiwan", "dealer": 0, "outcome": "draw",
    "seats": _seats(s2={"concealed": "123m456m789m123p45p11s"}),
    "taiwan": {"prevalent_wind": "东", "dealer_streak": 0,
               "false_win": {"offender": 2, "tile": "6p"}},
}


def test_false_win_record_is_settled_by_laizi_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _score(tmp_path, FALSE_WIN, capsys)
    assert code == 0
    # the shown hand read as a self-draw: 门清 1 + 不求自摸 2 = 3 台; the dealer adds 作庄
    pays = sorted((p["from"], p["to"], p["amount"]) for p in out["payments"])
    assert pays == [(2, 0, 100 + 4 * 20), (2, 1, 160), (2, 3, 160)]
    assert out["net"] == [180, 160, -500, 160]
    exempt = json.loads(json.dumps(FALSE_WIN))
    exempt["taiwan"]["false_win"]["exempt"] = True
    code, out, _ = _score(tmp_path, exempt, capsys)
    assert code == 0 and out["payments"] == []
    # a hand laid down that is no win at all still pays 底 (and the dealer's 作庄)
    junk = json.loads(json.dumps(FALSE_WIN))
    junk["seats"][2]["concealed"] = "1357m2468p1357s1234z"
    junk["taiwan"]["false_win"]["tile"] = "9s"
    code, out, _ = _score(tmp_path, junk, capsys)
    assert out["net"] == [120, 100, -320, 100]


DEAD_HAND = {
    "variant": "taiwan", "dealer": 0, "outcome": "win", "winners": [1], "how": "self_draw",
    "tile": "3p",
    "seats": _seats(s1={"concealed": "123m456m789m123p45p11s"}),
    "taiwan": {"prevalent_wind": "东", "dealer_streak": 0,
               "dead_hand": {"seat": 3, "draws_since_penalty": 5}},
}


def test_dead_hand_record_is_settled_by_laizi_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _score(tmp_path, DEAD_HAND, capsys)
    assert code == 0
    assert {p["from"] for p in out["payments"]} == {3}
    assert out["net"] == [0, 180 + 160 + 160, 0, -500]
    late = json.loads(json.dumps(DEAD_HAND))
    late["taiwan"]["dead_hand"]["draws_since_penalty"] = 9
    code, out, _ = _score(tmp_path, late, capsys)
    assert out["net"] == [-180, 500, -160, -160]
    dead_wins = json.loads(json.dumps(DEAD_HAND))
    dead_wins["taiwan"]["dead_hand"]["seat"] = 1
    code, _, err = _score(tmp_path, dead_wins, capsys)
    assert code == 2 and "相公" in err and "cannot win" in err


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r["taiwan"].update(declaration="heavenly") or r["seats"][1].update(
        concealed="123m456m789m45p11s", melds=[{"kind": "chow", "tiles": "123p", "from": 0}]),
     "locked"),
    (lambda r: r["taiwan"].update(flower_win={"kind": "eight_immortals"})
     or r["seats"][1].update(flowers="1234567f"), "needs all 8"),
    (lambda r: r.update(winners=[0]) or r["seats"].__setitem__(0, r["seats"][1])
     or r["seats"].__setitem__(1, {}) or r["taiwan"].update(declaration="heavenly"),
     "天听 is declared by a non-dealer"),
    (lambda r: r["taiwan"].update(prevalent_wind="中"), "prevalent_wind"),
    (lambda r: r["taiwan"].update(first_draw="yes"), "first_draw"),
    (lambda r: r.update(tile="4p"), "has not won"),
    (lambda r: r["taiwan"].update(false_win={"offender": 1, "tile": "1m"}), "do not belong"),
])
def test_impossible_records_are_refused(change: Any, message: str) -> None:
    record = json.loads(json.dumps(DEAD_HAND))
    del record["taiwan"]["dead_hand"]
    change(record)
    with pytest.raises(RecordError, match=message):
        record_from_json(record)


# ------------------------------------------------------------------ invariants


def _accounted(g: Game) -> list[int]:
    counts = [0] * T.NUM_TILE_IDS
    for s in range(g.n):
        for t in g.concealed(s):
            counts[t] += 1
        for m in g.melds[s]:
            for t in m.tiles:
                counts[t] += 1
        for t in [*g.discards[s], *g.flowers[s]]:
            counts[t] += 1
    for t in [*g.taken, *g.wall[g.head:g.tail]]:
        counts[t] += 1
    return counts


RUN_SEEDS = int(os.environ.get("LAIZI_TAIWAN_SEEDS", "12"))
"""Seeds in the suite (12); a long run: ``LAIZI_TAIWAN_SEEDS=2000 pytest -k long_seeded``."""
FULL = T.to_counts(V.tile_set(None), T.NUM_TILE_IDS)


def _check(g: Game) -> None:
    assert _accounted(g) == FULL
    for s in range(g.n):
        view = g.view(s)
        assert view["hand"] == g.concealed(s)
        text = json.dumps(view)
        assert "\"wall\": [" not in text
        for o in range(g.n):
            if o != s and not g.over:
                assert "hands" not in view and view["hand_sizes"][o] == g.sizes[o]


def test_long_seeded_run_keeps_the_invariants() -> None:
    outcomes: dict[str, int] = {}
    from laizi.variants.taiwan_bot import TaiwanBot

    for seed in range(RUN_SEEDS):
        bots = [TaiwanBot(), TaiwanBot(declare=False), Eager(seed), TaiwanBot()]
        g = Game("taiwan", seed=seed, dealer=seed % 4,
                 context={"prevalent_wind": seed % 4, "dealer_streak": seed % 3})
        _check(g)
        while not g.over:
            for seat in g.to_act():
                g.apply(bots[seat].choose(g.view(seat), g.legal_actions(seat)))
                _check(g)
        assert g.record is not None
        assert sum(g.net) == 0
        assert state_json(replay(loads(dumps(g.log)))) == state_json(g)
        again = record_from_json(json.loads(json.dumps(record_to_json(g.record, g.variant))))
        assert V.settle(again) == g.payments
        key = g.record.outcome + (":" + str(g.record.how) if g.record.winners else "")
        outcomes[key] = outcomes.get(key, 0) + 1
    assert outcomes.get("draw", 0) < RUN_SEEDS / 2  # wins happen


def test_laizi_play_taiwan_runs_hands_with_the_tai_breakdown(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "taiwan", "--auto", "--seed", "5", "--hands", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("hand ") >= 3 and "东圈" in out and "连" in out
    assert "total" in out or "流局" in out


def test_laizi_play_taiwan_person_leaves_cleanly() -> None:
    import io

    from laizi.cli import build_parser
    from laizi.commands.play import run

    args = build_parser().parse_args(["play", "taiwan", "--seed", "2"])
    out = io.StringIO()
    assert run(args, io.StringIO("x\n1\nq\n"), out) == 0
    text = out.getvalue()
    assert "your choice" in text and "Please type a number" in text and "leave" in text
