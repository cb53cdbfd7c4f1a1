"""The table page in chromium against a stand-in hall (tests/test_client_clock.py's fake
websocket and HTTP fixtures; ``state`` frames made from a real :class:`Table`). A page
error or a console error fails the test.

* a settlement left open while the next hand goes on never keeps its reader from acting:
  when a turn or a real claim prompt comes, the hand, the buttons and the clock are on
  top, clickable (what is under each one's centre is that one), and the settlement is
  still open (issue 38: a slow reader missed turns, and claims ran out behind it);
* a greyed-out tile of one's hand (aria-disabled, never ``disabled``: a disabled button
  gets no click in Firefox / Safari) says why when tapped, and sends nothing;
* the share box of a hall that listens on loopback only shows no QR code (a friend's
  phone could not open its link) but the warning; a hall friends can reach shows it;
* on a 360x740 phone mid-hand one's own wind, 庄 and score are in the dock, and one's own
  seat (its discards) is reachable by scrolling, not under the dock.

Needs Playwright for Python and Debian's chromium, like tests/test_browser.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

# Skips this module without playwright or chromium (not in CI): one rule, browser_helpers.
from browser_helpers import Browser, Page, launched
from conditions import until_sync
from laizi.bots.registry import make_bot
from laizi.server.records import hand_records
from laizi.table.table import Table
from test_client_clock import CODE, TOKEN, Hall, frame, open_page, room_info, table_api

ME = "阿明"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def play_until(variant: str, people: list[str], stop: Callable[[Table, int], bool],
               hands_before: int = 1, seed: int = 1) -> Table:
    """Bots play every seat (``ME`` included) until ``stop(table, my_seat)`` holds, after
    at least ``hands_before`` finished hands."""
    for s in range(seed, seed + 40):
        table = Table(variant, people=people, seed=s)
        bots = [make_bot("greedy", i) for i in range(len(table.seats))]
        for _ in range(8):
            table.start_hand()
            while table.in_hand:
                me = table.seats.index(ME) if ME in table.seats else -1
                if me >= 0 and table.number > hands_before and stop(table, me):
                    return table
                seat = table.to_act()[0]
                game = table.game
                assert game is not None
                table.act(bots[seat].choose(game.view(seat), table.legal_actions(seat)))
    raise AssertionError("no such moment")


def _phase(table: Table) -> str:
    return str(table.view_for(ME)["phase"])


def a_claim(table: Table, me: int) -> bool:
    return _phase(table) == "claim" and me in table.to_act() and any(
        a.to_json()["type"] != "pass" for a in table.legal_actions(me))


def a_turn(table: Table, me: int) -> bool:
    return _phase(table) == "turn" and table.to_act() == [me]


def a_turn_with_a_button(table: Table, me: int) -> bool:
    """My turn with an action besides the discards (a kong, 红中杠, a win): the action
    bar has a button."""
    return a_turn(table, me) and any(a.to_json()["type"] != "discard"
                                     for a in table.legal_actions(me))


def a_refused_tile(table: Table, me: int) -> bool:
    if not a_turn(table, me):
        return False
    view = table.view_for(ME)
    discards = {a.to_json().get("tile") for a in table.legal_actions(me)
                if a.to_json()["type"] == "discard"}
    return any(x not in discards for x in view["hand"])


def push(page: Page, f: dict[str, Any]) -> None:
    page.evaluate("f => window.__push(f)", f)


UNCOVERED = """sel => [...document.querySelectorAll(sel)].map(e => {
    const b = e.getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {on: x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight,
            mine: !!hit && (hit === e || e.contains(hit))};
})"""


@pytest.mark.parametrize("prompt", ["claim", "turn"])
def test_an_open_settlement_never_keeps_its_reader_from_acting(browser: Browser,
                                                               prompt: str) -> None:
    # Both prompts with a button in the action bar, which is checked to be uncovered.
    table = play_until("jingzhou", [ME, "🤖 1", "🤖 2"], a_claim if prompt == "claim"
                       else a_turn_with_a_button)
    hall = Hall(table_api(ME))
    page, errors = open_page(browser, hall, f"/r/{CODE}?t={TOKEN}")
    try:
        page.wait_for_function("window.__sockets.length > 0", timeout=10_000)
        room = room_info(table)
        push(page, frame(table, ME, 10, legal=False, deadline=None, room=room))
        page.wait_for_selector("[data-testid=dock]")
        # The last hand's settlement comes (the records), and stays open; then a prompt.
        hall.api[f"/api/rooms/{CODE}/records"] = {
            "code": CODE, "variant": "jingzhou", "hands": hand_records(table.log)}
        push(page, frame(table, ME, 11, legal=False, deadline=None, room=room))
        page.wait_for_selector("[data-testid=settlement]")
        push(page, frame(table, ME, 12, legal=True, deadline=20, room=room))
        page.wait_for_selector(".clock")
        until_sync(lambda: bool(page.evaluate(  # the dock's height is measured
            "getComputedStyle(document.querySelector('.table-page'))"
            ".getPropertyValue('--dock-h')")), "the dock's height measured")
        assert page.locator("[data-testid=settlement]").count() == 1  # still open
        # ... and not modal to a screen reader while the dock is usable beside it.
        assert page.get_attribute("[data-testid=settlement]", "aria-modal") == "false"
        targets = ["[data-testid=actionbar] [data-action]", ".myhand .tile", ".clock"]
        if prompt == "turn":
            targets[1] = ".myhand button.tile:not([aria-disabled])"
        for sel in targets:
            seen = page.evaluate(UNCOVERED, sel)
            assert seen, sel
            assert all(s["on"] and s["mine"] for s in seen), (sel, seen)
        page.screenshot(path=f"/tmp/settlement-{prompt}-360x740.png")
        # The settlement's own buttons are not under the dock either (it scrolls clear).
        close = page.locator("[data-testid=settlement-close]")
        close.scroll_into_view_if_needed()
        assert all(s["mine"] for s in page.evaluate(UNCOVERED, "[data-testid=settlement-close]"))
        # A click answers the prompt.
        if prompt == "claim":
            page.click("[data-testid=actionbar] [data-action]:not([data-action=pass])")
        else:
            page.click(".myhand button.tile:not([aria-disabled]) >> nth=0")
        page.wait_for_function("window.__sent.some(m => m.op === 'act')", timeout=5_000)
        assert page.locator("[data-testid=settlement]").count() == 1
        # Closed, the page is as it was.
        close.click()
        page.wait_for_selector(".table-page:not(.acting)")
        assert not errors, errors
    finally:
        page.context.close()


def test_a_greyed_out_tile_says_why_when_tapped(browser: Browser) -> None:
    table = play_until("jingzhou", [ME, "🤖 1", "🤖 2"], a_refused_tile, hands_before=0)
    page, errors = open_page(browser, Hall(table_api(ME)), f"/r/{CODE}?t={TOKEN}")
    try:
        page.wait_for_function("window.__sockets.length > 0", timeout=10_000)
        push(page, frame(table, ME, 10, legal=True, deadline=None, room=room_info(table)))
        tile = page.locator(".myhand button.tile[aria-disabled=true]").first
        tile.wait_for(timeout=10_000)
        assert tile.get_attribute("disabled") is None  # a tap reaches it in every browser
        reason = tile.get_attribute("data-reason")
        assert (reason and "不能打" in reason) or "只能" in (reason or ""), reason
        tile.click(force=True)  # Playwright counts aria-disabled as "not enabled"
        hint = page.get_by_test_id("tile-hint")
        hint.wait_for(timeout=5_000)
        assert hint.inner_text() == reason
        assert not page.evaluate("window.__sent.some(m => m.op === 'act')")  # not discarded
        assert not errors, errors
    finally:
        page.context.close()


@pytest.mark.parametrize("local_only", [True, False])
def test_the_share_box_shows_a_qr_code_only_when_phones_can_open_the_link(
        browser: Browser, local_only: bool) -> None:
    table = Table("jingzhou", people=[ME, "🤖 1", "🤖 2"], seed=1)
    api = table_api(ME)
    api["/api/share"] = {"base": "http://127.0.0.1:8000", "lan": [], "local_only": local_only}
    page, errors = open_page(browser, Hall(api), f"/r/{CODE}?t={TOKEN}")
    try:
        page.wait_for_function("window.__sockets.length > 0", timeout=10_000)
        push(page, frame(table, ME, 1, legal=False, deadline=None,
                         room=room_info(table, started=False, hands=0)))
        page.get_by_test_id("share-link").wait_for(timeout=10_000)
        page.wait_for_selector("[data-testid=share-qr], [data-testid=share-local-only]")
        assert page.get_by_test_id("share-qr").count() == (0 if local_only else 1)
        assert page.get_by_test_id("share-local-only").count() == (1 if local_only else 0)
        assert not errors, errors
    finally:
        page.context.close()


def test_ones_own_seat_is_reachable_on_a_small_phone(browser: Browser) -> None:
    def late_turn(table: Table, me: int) -> bool:
        view = table.view_for(ME)
        return a_turn(table, me) and len(view["discards"][me]) >= 6 and view["dealer"] == me

    table = play_until("mcr", [ME, "🤖 1", "🤖 2", "🤖 3"], late_turn, hands_before=0)
    page, errors = open_page(browser, Hall(table_api(ME)), f"/r/{CODE}?t={TOKEN}")
    try:
        page.wait_for_function("window.__sockets.length > 0", timeout=10_000)
        room = room_info(table, ledger={ME: 12, "🤖 1": -4, "🤖 2": -4, "🤖 3": -4})
        push(page, frame(table, ME, 10, legal=True, deadline=None, room=room))
        head = page.get_by_test_id("dock-head")
        head.wait_for(timeout=10_000)
        assert page.get_by_test_id("dock-score").inner_text() == "+12"
        assert "庄" in head.inner_text() and ME in head.inner_text()
        page.screenshot(path="/tmp/own-seat-360x740-top.png")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        until_sync(lambda: bool(page.evaluate(
            "scrollY + innerHeight >= document.documentElement.scrollHeight - 1")),
            "the page scrolled to its end")
        seat = ".seat.rel-0"
        for sel in (f"{seat} .seat-head .score", f"{seat} .discards.own .tile"):
            seen = page.evaluate(UNCOVERED, sel)
            assert seen and all(s["on"] and s["mine"] for s in seen), (sel, seen)
        page.screenshot(path="/tmp/own-seat-360x740-end.png")
        assert not errors, errors
    finally:
        page.context.close()
