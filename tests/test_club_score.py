"""A score-keeping session of a club feeds the club's ledger (issue 41, item 7's last
clause; docs/clubs.md "Score-keeping sessions"): only a member makes one for the club; two
members enter three hands; a member closes it (结束并记入账本): the ledger holds three more
entries, each summing to zero, the session is read-only (a hand entered or taken back is
``session_closed`` and changes nothing), closing again appends nothing; the CSV export
with the session's export verifies with ``laizi verify-ledger`` and on the server, and
fails after any single change to an entry, or to the session's export."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laizi.club_ledger import (
    CSV_FIELDS,
    session_facts,
)
from ledger_checks import TAMPER_SETTINGS, check_rechained_net_fails, check_single_change_fails
from server_helpers import sqlite_url

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from laizi.server.app import create_app
from laizi.server.people import PERSON_HEADER

NAMES = ["东家", "南家", "西家", "北家"]


def _hand(winner: int) -> dict[str, Any]:
    """A Taiwan hand: ``winner`` wins by self-draw (123m456m789m123p45p11s + 3p)."""
    seats: list[dict[str, Any]] = [{}, {}, {}, {}]
    seats[winner] = {"concealed": "123m456m789m123p45p11s"}
    return {"variant": "taiwan", "dealer": 0, "outcome": "win", "winners": [winner],
            "how": "self_draw", "tile": "3p", "seats": seats,
            "taiwan": {"prevalent_wind": "东"}}


def _person(hall: TestClient, name: str) -> tuple[dict[str, str], str]:
    r = hall.post("/api/me", json={"name": name})
    assert r.status_code == 201, r.text
    credential = r.json()["credential"]
    return {PERSON_HEADER: credential}, credential.split(".")[0]


def _club_of_two(hall: TestClient) -> tuple[str, dict[str, str], dict[str, str],
                                           dict[str, str]]:
    """(club, ann, bob, their ids by name): ann made it, bob was let in."""
    ann, ann_id = _person(hall, "阿安")
    bob, bob_id = _person(hall, "阿博")
    club = hall.post("/api/clubs", json={"name": "周五", "settings": {"variant": "taiwan"}},
                     headers=ann).json()["id"]
    invite = hall.get(f"/api/clubs/{club}", headers=ann).json()["club"]["invite"]
    assert hall.post(f"/api/clubs/invite/{invite}", json={}, headers=bob).status_code == 200
    assert hall.post(f"/api/clubs/{club}/requests/{bob_id}", json={"approve": True},
                     headers=ann).status_code == 200
    return club, ann, bob, {"阿安": ann_id, "阿博": bob_id}


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


@pytest.fixture(scope="module")
def closed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Two members of a club keep a session of three hands and bob closes it (twice);
    what every test looks at, read through the API."""
    tmp = tmp_path_factory.mktemp("clubscore")
    app = create_app(sqlite_url(tmp / "hall.db"), bot_processes=1)
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as hall:
        club, ann, bob, ids = _club_of_two(hall)
        stranger, _ = _person(hall, "路人")
        out: dict[str, Any] = {
            "stranger": hall.post("/api/score/sessions", json={
                "variant": "taiwan", "names": NAMES, "club": club}, headers=stranger),
            "unknown": hall.post("/api/score/sessions", json={
                "variant": "taiwan", "names": NAMES, "club": "nosuchclub"}, headers=ann),
            "guest": hall.post("/api/score/sessions", json={
                "variant": "taiwan", "names": NAMES, "club": club})}
        made = hall.post("/api/score/sessions", json={"variant": "taiwan", "names": NAMES,
                                                      "club": club}, headers=ann).json()
        sid = made["id"]
        secret = urlsplit(hall.get(f"/api/score/sessions/{sid}/link", headers=ann)
                          .json()["link"]).fragment.removeprefix("join=")
        hall.post(f"/api/score/sessions/{sid}/join", json={"secret": secret}, headers=bob)
        for version, (who, winner) in enumerate([(ann, 1), (bob, 2), (ann, 3)]):
            r = hall.post(f"/api/score/sessions/{sid}/hands",
                          json={"record": _hand(winner), "version": version}, headers=who)
            assert r.status_code == 201, r.text
        out["before"] = hall.get(f"/api/clubs/{club}/ledger", headers=ann).json()
        out["page_open"] = hall.get(f"/api/clubs/{club}", headers=bob).json()
        persons = {"东家": ids["阿安"], "南家": ids["阿博"]}
        out["close"] = hall.post(f"/api/score/sessions/{sid}/close",
                                 json={"version": 3, "persons": persons}, headers=bob)
        out["again"] = hall.post(f"/api/score/sessions/{sid}/close", json={"version": 3},
                                 headers=ann)
        out["add"] = hall.post(f"/api/score/sessions/{sid}/hands",
                               json={"record": _hand(1), "version": 4}, headers=ann)
        out["undo"] = hall.delete(f"/api/score/sessions/{sid}/hands/last?version=4",
                                  headers=bob)
        out.update(
            club=club, sid=sid, ids=ids,
            session=hall.get(f"/api/score/sessions/{sid}").json(),
            ledger=hall.get(f"/api/clubs/{club}/ledger", headers=ann).json(),
            csv=hall.get(f"/api/clubs/{club}/ledger.csv", headers=ann).text,
            export=hall.get(f"/api/score/sessions/{sid}/export").text,
            verdict=hall.get(f"/api/clubs/{club}/verify", headers=bob).json(),
            page=hall.get(f"/api/clubs/{club}", headers=bob).json())
        yield out


def test_only_a_member_makes_a_session_of_the_club(closed: dict[str, Any]) -> None:
    _refused(closed["stranger"], 403, "not_club_member")
    _refused(closed["guest"], 403, "not_club_member")  # no identity: no member either
    _refused(closed["unknown"], 404, "unknown_club")
    assert "credential" not in closed["guest"].json()  # and no guest was made
    # nothing was made: the club's page lists the one session its members made
    assert [s["id"] for s in closed["page"]["sessions"]] == [closed["sid"]]


def test_the_club_page_lists_its_sessions(closed: dict[str, Any]) -> None:
    (open_,) = closed["page_open"]["sessions"]
    assert open_["hands"] == 3 and open_["closed"] is None and open_["names"] == NAMES
    (done,) = closed["page"]["sessions"]
    assert done["closed"] is not None and done["hands"] == 3


def test_closing_appends_every_hand_once_in_order(closed: dict[str, Any]) -> None:
    assert closed["before"]["count"] == 0  # an open session feeds nothing yet
    assert closed["close"].status_code == 200, closed["close"].text
    assert closed["close"].json()["closed"] is not None
    assert closed["again"].status_code == 200, closed["again"].text  # idempotent
    entries = closed["ledger"]["entries"]
    assert closed["ledger"]["count"] == 3
    assert [(e["seq"], e["room"], e["hand"]) for e in entries] == [
        (i, f"score:{closed['sid']}", i) for i in range(3)]
    hands = closed["session"]["hands"]
    for e, hand in zip(entries, hands, strict=True):
        assert sum(e["net"].values()) == 0
        assert e["net"] == dict(zip(NAMES, hand["settlement"]["net"], strict=True))
        assert e["persons"] == {"东家": closed["ids"]["阿安"], "南家": closed["ids"]["阿博"]}
    total = closed["ledger"]["totals"]["total"]
    assert total["hands"] == 3
    assert set(total["members"]) == set(closed["ids"].values())
    assert closed["verdict"] == {"ok": True, "entries": 3, "problem": None}


def test_a_closed_session_is_read_only(closed: dict[str, Any]) -> None:
    _refused(closed["add"], 409, "session_closed")
    _refused(closed["undo"], 409, "session_closed")
    session = closed["session"]
    assert len(session["hands"]) == 3 and session["version"] == 4


def _write(tmp: Path, closed: dict[str, Any], csv: str, export: str) -> list[str]:
    (tmp / "ledger.csv").write_text(csv, "utf-8")
    (tmp / "session.json").write_text(export, "utf-8")
    return ["verify-ledger", str(tmp / "ledger.csv"), str(tmp / "session.json")]


def test_the_exports_verify_with_laizi_verify_ledger(closed: dict[str, Any],
                                                     tmp_path: Path) -> None:
    from laizi.cli import main

    assert main(_write(tmp_path, closed, closed["csv"], closed["export"])) == 0
    # a hand's record changed in the session's export: no hand has the entry's hash
    export = json.loads(closed["export"])
    export["hands"][1]["record"]["winners"] = [3]
    assert main(_write(tmp_path, closed, closed["csv"],
                       json.dumps(export, ensure_ascii=False))) == 1
    # the ledger without the session's export names hands nobody gave
    (tmp_path / "ledger.csv").write_text(closed["csv"], "utf-8")
    assert main(["verify-ledger", str(tmp_path / "ledger.csv"),
                 str(tmp_path / "ledger.csv")]) != 0


@TAMPER_SETTINGS
@given(which=st.integers(0, 2), field=st.sampled_from(CSV_FIELDS), salt=st.integers(0, 5))
def test_any_single_change_fails_verification(closed: dict[str, Any], which: int,
                                              field: str, salt: int) -> None:
    facts = session_facts(json.loads(closed["export"]))
    check_single_change_fails(closed["csv"], facts, which, field, salt)


@TAMPER_SETTINGS
@given(which=st.integers(0, 2), shift=st.integers(1, 50))
def test_a_rechained_net_fails_against_the_session(closed: dict[str, Any], which: int,
                                                   shift: int) -> None:
    """Points moved between two names, the chain computed again: the hand settled
    again from the session's record says otherwise."""
    facts = session_facts(json.loads(closed["export"]))
    check_rechained_net_fails(closed["csv"], facts, which, NAMES[0], NAMES[2], shift)


def test_a_session_without_a_club_closes_read_only(tmp_path: Path) -> None:
    app = create_app(sqlite_url(tmp_path / "hall.db"), bot_processes=1)
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as hall:
        ann, _ = _person(hall, "阿安")
        sid = hall.post("/api/score/sessions", json={"variant": "taiwan", "names": NAMES},
                        headers=ann).json()["id"]
        hall.post(f"/api/score/sessions/{sid}/hands", json={"record": _hand(1)}, headers=ann)
        _refused(hall.post(f"/api/score/sessions/{sid}/close",
                           json={"persons": {"东家": "x"}}, headers=ann), 400, "malformed")
        r = hall.post(f"/api/score/sessions/{sid}/close", json={"version": 0}, headers=ann)
        _refused(r, 409, "stale_version")  # the phone showed a version before the hand
        r = hall.post(f"/api/score/sessions/{sid}/close", json={"version": 1}, headers=ann)
        assert r.status_code == 200 and r.json()["closed"] is not None
        _refused(hall.post(f"/api/score/sessions/{sid}/hands", json={"record": _hand(2)},
                           headers=ann), 409, "session_closed")


def test_two_processes_closing_at_once_append_each_hand_once(tmp_path: Path) -> None:
    """A session closed whose hands are not appended yet (the close's append stopped,
    or is under way in two processes at once): two books, each its own lock as two
    processes have, catch up together; one's insert fails on the ledger's keys, it
    reads again and finds nothing left. Each hand is in once, the chain checks."""
    import asyncio
    import sqlite3

    from laizi.server.club_books import Books
    from laizi.server.clubs import Clubs
    from laizi.server.storage import Store

    url = sqlite_url(tmp_path / "hall.db")
    app = create_app(url, bot_processes=1)
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as hall:
        club, ann, _, _ = _club_of_two(hall)
        sid = hall.post("/api/score/sessions", json={"variant": "taiwan", "names": NAMES,
                                                     "club": club}, headers=ann).json()["id"]
        for winner in (1, 2):
            hall.post(f"/api/score/sessions/{sid}/hands", json={"record": _hand(winner)},
                      headers=ann)
    with sqlite3.connect(tmp_path / "hall.db") as db:  # closed, nothing appended yet
        db.execute("UPDATE score_sessions SET closed = 1.0 WHERE id = ?", (sid,))

    async def race() -> tuple[list[Any], Any]:
        store = Store(url)
        await store.setup()
        try:
            clubs = Clubs(store)
            one, other = Books(store, clubs), Books(store, clubs)
            await asyncio.gather(one.sync(club), other.sync(club), one.sync(club))
            return await one.entries(club), await other.verify(club)
        finally:
            await store.close()

    entries, verdict = asyncio.run(race())
    assert [(e["room"], e["hand"]) for e in entries] == [(f"score:{sid}", 0),
                                                         (f"score:{sid}", 1)]
    assert verdict.ok and verdict.entries == 2

    # the server's check settles the stored records again: a record changed in the
    # database after the close no longer has its entry's hash
    async def check() -> Any:
        store = Store(url)
        await store.setup()
        try:
            return await Books(store, Clubs(store)).verify(club)
        finally:
            await store.close()

    with sqlite3.connect(tmp_path / "hall.db") as db:
        (record,) = db.execute("SELECT record FROM score_hands WHERE session = ? AND n = 1",
                               (sid,)).fetchone()
        changed = json.loads(record)
        changed["dealer"] = 1
        db.execute("UPDATE score_hands SET record = ? WHERE session = ? AND n = 1",
                   (json.dumps(changed, ensure_ascii=False), sid))
    verdict = asyncio.run(check())
    assert not verdict.ok and "entry 1" in str(verdict.problem), verdict
