"""The club ledger (issue 41, item 4) after a match played in a club room on a real
hall: one entry a finished hand, each summing to zero, chained by hashes; its CSV export
verifies against the room's log (``laizi verify-ledger``, and the server's own check),
and fails after any single entry is changed — any field, or a net changed with the
whole chain computed again. Ratings per variant follow the match."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laizi.club_ledger import (
    CSV_FIELDS,
    HandFact,
    LedgerEntry,
    check_ledger,
    from_csv,
    hand_facts,
)
from laizi.table.table import Table
from ledger_checks import TAMPER_SETTINGS, check_rechained_net_fails, check_single_change_fails
from server_helpers import FAST, HTTP, PERSON, Client, Server, new_person, sqlite_url


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A club of two members who played a two-hand match in its room: the ledger's
    JSON, its CSV, the room's log, the server's verdict and the ratings."""
    tmp = tmp_path_factory.mktemp("club")
    server = Server(sqlite_url(tmp / "hall.db"), tmp).start()
    try:
        ming, hong = new_person(server, "阿明"), new_person(server, "小红")
        club = HTTP.post(f"{server.http}/api/clubs", json={"name": "周五", "settings": {
            "variant": "jingzhou"}}, headers={PERSON: ming}).json()["id"]
        page = HTTP.get(f"{server.http}/api/clubs/{club}", headers={PERSON: ming}).json()
        HTTP.post(f"{server.http}/api/clubs/invite/{page['club']['invite']}", json={},
                  headers={PERSON: hong})
        hong_id = hong.split(".")[0]
        assert HTTP.post(f"{server.http}/api/clubs/{club}/requests/{hong_id}",
                         json={"approve": True}, headers={PERSON: ming}).status_code == 200
        room = HTTP.post(f"{server.http}/api/clubs/{club}/rooms", json={
            "name": "阿明", "settings": {"hands": 2, **FAST}}, headers={PERSON: ming}).json()
        code = room["code"]
        joined = HTTP.post(f"{server.http}/api/rooms/{code}/join", json={"name": "小红"},
                           headers={PERSON: hong}).json()

        async def play() -> None:
            a = Client(server, code, room["token"], "阿明", seed=1)
            b = Client(server, code, joined["token"], "小红", seed=2)
            await a.connect()
            await b.connect()
            assert (await a.request("start"))["op"] == "ack"
            await asyncio.gather(a.play(timeout=120), b.play(timeout=120))
            await a.close()
            await b.close()

        asyncio.run(play())
        get = lambda path: HTTP.get(f"{server.http}{path}", headers={PERSON: hong})  # noqa: E731
        yield {"ledger": get(f"/api/clubs/{club}/ledger").json(),
               "csv": get(f"/api/clubs/{club}/ledger.csv").text,
               "log": HTTP.get(f"{server.http}/api/rooms/{code}/log").text,
               "verdict": get(f"/api/clubs/{club}/verify").json(),
               "ratings": get(f"/api/clubs/{club}/ratings").json(),
               "ids": {"阿明": ming.split(".")[0], "小红": hong_id}, "code": code,
               "stranger": HTTP.get(f"{server.http}/api/clubs/{club}/ledger",
                                    headers={PERSON: new_person(server, "路人")})}
    finally:
        server.stop()


def _facts(log: str) -> dict[str, HandFact]:
    return hand_facts(Table.from_log(log.splitlines()).log)


def test_every_hand_is_an_entry_summing_to_zero(played: dict[str, Any]) -> None:
    entries = played["ledger"]["entries"]
    assert [(e["room"], e["hand"], e["seq"]) for e in entries] == [
        (played["code"], 0, 0), (played["code"], 1, 1)]
    assert all(sum(e["net"].values()) == 0 for e in entries)
    assert all(set(e["persons"].values()) <= set(played["ids"].values()) for e in entries)
    total = played["ledger"]["totals"]["total"]
    assert total["hands"] == 2
    assert sum(total["members"].values()) + sum(total["others"].values()) == 0
    (evening,) = played["ledger"]["totals"]["evenings"]
    assert evening["members"] == total["members"]
    assert played["stranger"].status_code == 403
    assert played["stranger"].json()["error"]["code"] == "not_club_member"


def test_the_export_verifies_here_and_on_the_server(played: dict[str, Any],
                                                    tmp_path: Path) -> None:
    from laizi.cli import main

    assert played["verdict"] == {"ok": True, "entries": 2, "problem": None}
    entries = from_csv(played["csv"])
    assert entries == played["ledger"]["entries"]
    assert check_ledger(entries, _facts(played["log"])).ok
    (tmp_path / "ledger.csv").write_text(played["csv"], "utf-8")
    (tmp_path / "room.jsonl").write_text(played["log"], "utf-8")
    assert main(["verify-ledger", str(tmp_path / "ledger.csv"),
                 str(tmp_path / "room.jsonl")]) == 0
    bad = played["csv"].replace(entries[1]["hash"], "f" * 64)
    (tmp_path / "ledger.csv").write_text(bad, "utf-8")
    assert main(["verify-ledger", str(tmp_path / "ledger.csv"),
                 str(tmp_path / "room.jsonl")]) == 1


def test_ratings_follow_the_match(played: dict[str, Any]) -> None:
    rows = played["ratings"]["ratings"]["jingzhou"]
    assert sorted(r["id"] for r in rows) == sorted(played["ids"].values())
    assert all(r["matches"] == 1 and r["sigma"] < 8.34 for r in rows)


@TAMPER_SETTINGS
@given(which=st.integers(0, 1), field=st.sampled_from(CSV_FIELDS), salt=st.integers(0, 5))
def test_any_single_change_fails_verification(played: dict[str, Any], which: int,
                                              field: str, salt: int) -> None:
    check_single_change_fails(played["csv"], _facts(played["log"]), which, field, salt)


@TAMPER_SETTINGS
@given(which=st.integers(0, 1), shift=st.integers(1, 50))
def test_a_rechained_change_fails_against_the_log(played: dict[str, Any], which: int,
                                                  shift: int) -> None:
    """Points moved between two players, the hashes computed again: the chain holds,
    the sum is zero, and the log still says otherwise."""
    a, b = sorted(from_csv(played["csv"])[which]["net"])[:2]
    check_rechained_net_fails(played["csv"], _facts(played["log"]), which, a, b, shift)


def test_an_evening_runs_past_midnight_in_the_clubs_time() -> None:
    from datetime import UTC, datetime

    from laizi.club_ledger import evening_of

    at = lambda s: datetime.fromisoformat(s).replace(tzinfo=UTC).timestamp()  # noqa: E731
    assert evening_of(at("2026-12-05T12:00:00"), 480) == "2026-12-05"  # 20:00 in Beijing
    assert evening_of(at("2026-12-05T17:30:00"), 480) == "2026-12-05"  # 01:30 the next day
    assert evening_of(at("2026-12-05T22:30:00"), 480) == "2026-12-06"  # 06:30: a new day
    assert evening_of(at("2026-12-05T17:30:00"), 0) == "2026-12-05"


def _entry(seq: int, room: str, net: dict[str, int], persons: dict[str, str]) -> LedgerEntry:
    return LedgerEntry(seq=seq, club="c", time=0, evening="2026-12-05", room=room, hand=seq,
                       net=net, persons=persons, log_hash="", prev="", hash="")


def test_ratings_rank_each_finished_match_of_three_or_four() -> None:
    from laizi.server.club_books import ratings, totals

    who = {"阿明": "p1", "小红": "p2", "老王": "p3"}
    entries = [
        _entry(0, "A", {"阿明": 30, "小红": -10, "老王": -10, "🤖 1": -10}, who),
        _entry(1, "A", {"阿明": 5, "小红": -5}, who),
        _entry(2, "B", {"阿明": -8, "小红": 8}, who),  # a match of two: not rated
        _entry(3, "C", {"小红": 20, "老王": -10, "🤖 1": -10}, who),  # not over yet
    ]
    names = {"p1": "阿明", "p2": "小红", "p3": "老王"}
    out = ratings(entries, {"A": "jingzhou", "B": "jingzhou"}, names)
    rows = out["jingzhou"]
    assert rows[0]["name"] == "阿明" and len(rows) == 3  # the winner first; no bot shown
    assert all(r["matches"] == 1 for r in rows)
    book = totals(entries, names)
    assert book["total"]["members"] == {"p1": 27, "p2": 13, "p3": -20}
    assert book["total"]["others"] == {"🤖 1": -20} and book["total"]["hands"] == 4
