"""听牌提示 on a phone: the panel shows exactly the server's ``hints`` frame (which
tests/test_hints.py holds to the engine), choosing a ready discard shows its waits without
discarding it, the hand marks the ready discards, and a room with hints off sends none.
On a hall whose turns send no waits (``LAIZI_HINT_BUDGET=0``) the page asks for the waits
of the discard shown (``hint_waits``) and shows exactly the answer
(tests/test_hint_budget.py holds the answers to the engine)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Error as PlaywrightError

import browser_helpers
from browser_helpers import (
    PHONES,
    People,
    close_settlement,
    decide,
    look,
    new_room,
    settlement_shown,
    shot,
)
from conditions import POLL_MS

if TYPE_CHECKING:
    from playwright.sync_api import ElementHandle, Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)


@pytest.fixture(scope="module")
def asking_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A hall whose turns' hints leave every discard's waits to be asked for."""
    with browser_helpers.serving(tmp_path_factory.mktemp("asking"),
                                 {"LAIZI_HINT_BUDGET": "0"}) as url:
        yield url


def _open(browser: People, room: dict[str, Any], phone: str, large: bool = False
          ) -> tuple[Page, list[dict[str, Any]]]:
    """The host's page (``large``: in 大字模式), started, and the frames its websocket
    receives (as they come)."""
    pg = browser.page(PHONES[phone], who="阿明")
    if large:
        pg.add_init_script("localStorage.setItem('laizi.display', 'large')")
    frames: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))
        # what the page asks (hint_waits), marked as sent
        ws.on("framesent", lambda payload: frames.append({**json.loads(payload), "out": 1}))

    pg.on("websocket", on_ws)
    pg.goto(room["link"])
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    return pg, frames


def _hints_in(frames: list[dict[str, Any]], version: str | None) -> dict[str, Any] | None:
    """The ``hints`` frame of this state version, if it came (one comes for each version
    of a seated player's hand, empty when nothing is ready)."""
    return next((f for f in reversed(frames) if f.get("op") == "hints"
                 and str(f["version"]) == version), None)


def _waits_of(pg: Page, frames: list[dict[str, Any]], version: int, d: dict[str, Any]
              ) -> list[dict[str, Any]]:
    """The waits of ready discard ``d`` as the server gave them: with the turn's hints,
    or in answer to the page's ``hint_waits`` for it (once it shows in the panel)."""
    if d["waits"] is not None:
        return list(d["waits"])
    pg.wait_for_selector(f"[data-testid=hint-for][data-tile='{d['tile']}'] + .hint-waits "
                         "[data-testid=hint-wait]")
    [ask] = [f for f in frames if f.get("out") and f.get("op") == "hint_waits"
             and f["version"] == version and f["tile"] == d["tile"]]
    [answer] = [f for f in frames if f.get("op") == "ack" and f.get("seq") == ask["seq"]
                and not f.get("out")]
    return list(answer["waits"])


def _stuck(pg: Page, frames: list[dict[str, Any]]) -> str:
    """What a test that never saw a ready turn was looking at (for its failure)."""
    shot(pg, "hints-stuck")
    tail = [{k: f.get(k) for k in ("op", "version", "hints")} | (
        {"legal": [a["type"] for a in f["legal"]], "phase": f["view"].get("phase"),
         "hands": f["room"].get("hands") if isinstance(f.get("room"), dict) else None}
        if f.get("op") == "state" else {}) for f in frames[-6:]]
    return (f"never ready on a turn: page version "
            f"{pg.get_attribute('.table-page', 'data-version')}, sees {look(pg)}, "
            f"last frames {tail}")


def _until_hints(pg: Page, frames: list[dict[str, Any]], deadline: float) -> None:
    """Play (the most isolated tile, claims too) until the hints panel offers discards on
    this person's turn; a settlement on the way is closed and the next hand readied. Like
    a person who reads the hints, it waits on its turn for that turn's hints frame before
    discarding (else a loaded machine, working the hints out slower than the test clicks,
    would have it discard past every ready turn)."""
    while pg.locator("[data-testid=hint-discard]").count() == 0:
        assert time.monotonic() < deadline, _stuck(pg, frames)
        if settlement_shown(pg):
            close_settlement(pg)
            if pg.locator("[data-testid=ready]:not([disabled])").count():
                pg.click("[data-testid=ready]")
            continue
        version = pg.get_attribute(".table-page", "data-version")
        seen = look(pg)
        if seen["auto"]:  # a dropped connection put the seat on 托管: 我回来了, as a person
            with contextlib.suppress(PlaywrightError):
                pg.click("[data-testid=back]", timeout=2000)
            continue
        if seen["tiles"] and not seen["window"] and _hints_in(frames, version) is None:
            pg.wait_for_timeout(POLL_MS)  # its turn: the hints of this version are due
            continue
        if decide(pg, claim=True, seen=seen):
            # As a person does: see the move land before looking again (else the loop
            # could stop on the hints of a turn whose discard is already on its way; a
            # loaded machine can take seconds).
            with contextlib.suppress(PlaywrightError):
                pg.wait_for_selector(f".table-page:not([data-version='{version}'])",
                                     timeout=30_000)
        else:
            pg.wait_for_timeout(POLL_MS)


def _steady(pg: Page) -> tuple[int, dict[str, Any]]:
    """The page's version and its hints panel, read while the version stays the same (one
    move can come as two frames, e.g. a flower and its replacement draw; the panel waits
    for the hints of the last)."""
    for _ in range(20):
        pg.wait_for_selector("[data-testid=hint-discard]")
        before = pg.get_attribute(".table-page", "data-version")
        shown = _shown(pg)
        if pg.get_attribute(".table-page", "data-version") == before and shown["discards"]:
            return int(before or -1), shown
    raise AssertionError("the page never held still")


def _shown(pg: Page) -> dict[str, Any]:
    return pg.evaluate("""() => { const h = document.querySelector('[data-testid=hints]');
      if (!h) return {discards: [], chosen: -1, waits: [], marked: []};
      return {
        discards: [...h.querySelectorAll('[data-testid=hint-discard]')].map(b => +b.dataset.tile),
        chosen: +(h.querySelector('[data-testid=hint-for]') || {dataset: {tile: -1}}).dataset.tile,
        waits: [...h.querySelectorAll('[data-testid=hint-wait]')].map(w => ({
            tile: +w.dataset.tile, unseen: +w.dataset.unseen,
            self_draw: w.dataset.selfDraw === '' ? null : +w.dataset.selfDraw,
            on_discard: w.dataset.onDiscard === ''
                ? null : w.dataset.onDiscard.split(',').map(Number)})),
        marked: [...document.querySelectorAll('.myhand .tile.ready-discard')]
            .map(t => +t.dataset.tile),
    }}""")


@pytest.mark.parametrize(("variant", "phone", "large", "hall"), [
    ("jingzhou", "360x740", False, "server"),
    ("golden", "390x844", False, "asking_server"),  # every discard's waits asked for
    ("golden", "360x740", True, "server")])  # 大字模式 on the narrower phone
def test_the_hints_panel_shows_the_servers_hints(browser: People, request: Any, variant: str,
                                                 phone: str, large: bool, hall: str) -> None:
    server = request.getfixturevalue(hall)
    # The bots pause on their turns as in a real room (bot_delay), so a hand that waits
    # has its hints worked out before the next move.
    room = new_room(server, "阿明", variant, hands=16, bot_delay=0.2)
    pg, frames = _open(browser, room, phone, large)
    deadline = time.monotonic() + 240
    look_as = f"{variant}-{phone}{'-large' if large else ''}"
    while True:
        _until_hints(pg, frames, deadline)
        chosen = _check_ready_turn(pg, frames, look_as)
        # Discarding a ready tile leaves the hand ready: its waits stay in view (the
        # server's hints of the new hand: the same tiles the discard's hint named).
        version = pg.get_attribute(".table-page", "data-version")
        pg.click(f".myhand .tile.ready-discard[data-tile='{chosen['tile']}']")
        pg.wait_for_selector(f".table-page:not([data-version='{version}'])")
        ready = _ready_panel(pg, deadline)
        if ready is not None:
            break
        # The next move came before this hand's hints (a loaded machine works them out
        # slower than the bots' 0.2 s): the next ready turn, then.
    shot(pg, f"hints-ready-{look_as}")
    # Read from the panel that appeared (the bots play on: by now it may have made way
    # for the next turn's discards, and an element handle still holds what it showed).
    waits = ready.evaluate("h => [...h.querySelectorAll('[data-testid=hint-wait]')]"
                           ".map(w => +w.dataset.tile)")
    assert waits == [w["tile"] for w in chosen["waits"]]


def _check_ready_turn(pg: Page, frames: list[dict[str, Any]], look_as: str
                      ) -> dict[str, Any]:
    """On a turn with ready discards: the panel shows exactly the server's hints frame of
    this version (and the answers to what it asked), the hand marks the same tiles,
    choosing another discard shows its waits without discarding; the discard to make
    (the last one listed) with its waits."""
    version, shown = _steady(pg)
    sent = [f for f in frames if f.get("op") == "hints" and f["version"] == version]
    assert len(sent) == 1, [f.get("op") for f in frames[-5:]]
    hints = sent[0]["hints"]
    assert shown["discards"] == [d["tile"] for d in hints["discards"]]
    assert set(shown["marked"]) == set(shown["discards"]), pg.inner_html(".myhand")[:1500]
    # shown first: the first discard whose waits came with the turn, else the first
    first = next((d for d in hints["discards"] if d["waits"] is not None),
                 hints["discards"][0])
    assert shown["chosen"] == first["tile"]
    assert _waits_of(pg, frames, version, first) == _shown(pg)["waits"]
    shot(pg, f"hints-{look_as}")
    chosen: dict[str, Any] = {**first, "waits": _waits_of(pg, frames, version, first)}
    if len(hints["discards"]) > 1:  # choosing another shows its waits, discarding nothing
        hand = pg.eval_on_selector_all(".myhand .tile", "ts => ts.map(t => t.dataset.tile)")
        other = hints["discards"][-1]
        pg.click(f"[data-testid=hint-discard][data-tile='{other['tile']}']")
        pg.wait_for_selector(f"[data-testid=hint-for][data-tile='{other['tile']}']")
        other = {**other, "waits": _waits_of(pg, frames, version, other)}
        assert _shown(pg)["waits"] == other["waits"]
        assert pg.eval_on_selector_all(".myhand .tile", "ts => ts.map(t => t.dataset.tile)") == hand
        chosen = other
    # Nothing spills sideways on the phone.
    assert pg.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    return chosen


def _ready_panel(pg: Page, deadline: float) -> ElementHandle | None:
    """The ready hand's waits panel once it shows; None if the person has something to
    do first (a claim, the next turn) or the hand ends."""
    while time.monotonic() < deadline:
        panel = pg.query_selector("[data-testid=hints].ready")
        if panel is not None:
            return panel
        seen = look(pg)
        if seen["settlement"] or seen["acts"] or seen["tiles"]:
            return None
        pg.wait_for_timeout(POLL_MS)
    raise AssertionError(_stuck(pg, []))


def test_a_room_with_hints_off_sends_and_shows_none(browser: People, server: str) -> None:
    room = new_room(server, "阿明", "jingzhou", hands=1, hints=False)
    pg, frames = _open(browser, room, "390x844")
    deadline = time.monotonic() + 120
    while not settlement_shown(pg):
        assert time.monotonic() < deadline
        assert pg.locator("[data-testid=hints]").count() == 0
        if not decide(pg, claim=True, seen=look(pg)):
            pg.wait_for_timeout(POLL_MS)
    assert not [f for f in frames if f.get("op") == "hints"]
