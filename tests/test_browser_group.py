"""The hall in chromium as a group of friends plays it, on phone viewports (360x740 and
390x844), every page watched for page and console errors (browser_helpers.People):

* every variant (荆州, 晃晃, 国标+金, 国标, 台湾) played by clicking to its settlement,
  which shows the headline, each payment and the nets with people's names;
* 晃晃 with six and with eight people joining by the room's link and a spectator, three
  hands: every page (the seated, the waiting, the spectator) shows each hand's payments,
  horses (买马, waiting people's included) and who 下桌 / 上桌;
* while a claim is offered in a 4-seat game the claim bar leaves the hand visible (also at
  every claim prompt of the 晃晃 groups);
* a 荆州 person is never prompted when 过 is their only answer.

Rooms use the fast settings (no clock, no claim window, no bots' pause, no pause between
hands), so a hand takes a few seconds; in a 晃晃 group only the host's phone plays sound and
motion (the others are muted, with reduced motion).
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import pytest

import browser_helpers
from browser_helpers import (
    CLAIMS,
    PHONES,
    People,
    bot_name,
    check_hand_visible,
    check_settlement,
    close_settlement,
    decide,
    end_match,
    join_by_link,
    look,
    new_room,
    play_until,
    records,
    settlement,
    settlement_shown,
    shot,
)
from conditions import POLL_MS

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)


# A finger already tapping when a settlement opens by itself: the first dimmed page around
# a modal that appears is tapped at once (the same task that shows it), and the tap is
# counted in ``window.tappedThrough``.
TAP_THROUGH = """new MutationObserver((_, seen) => {
    const back = document.querySelector('.modal-back');
    if (!back || window.tappedThrough) return;
    window.tappedThrough = 1; back.click(); seen.disconnect();
}).observe(document, {childList: true, subtree: true});"""


def open_as_host(browser: People, room: dict[str, Any], phone: str, who: str,
                 init_script: str | None = None) -> Page:
    pg = browser.page(PHONES[phone], who=who)
    if init_script:
        pg.add_init_script(init_script)
    pg.goto(room["link"])
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    return pg


# --------------------------------------------------------------------------- every variant

VARIANTS = [("jingzhou", "360x740"), ("huanghuang", "390x844"), ("golden", "360x740"),
            ("mcr", "390x844"), ("taiwan", "360x740")]


@pytest.mark.parametrize(("variant", "phone"), VARIANTS)
def test_every_variant_to_its_settlement(browser: People, server: str, variant: str,
                                         phone: str) -> None:
    room = new_room(server, "阿明", variant, hands=1)
    pg = open_as_host(browser, room, phone, "阿明", init_script=TAP_THROUGH)
    # Claims are taken (碰, 杠, 吃 when offered), turns discard the drawn tile.
    clicks = play_until(pg, lambda: settlement_shown(pg), claim=True)
    assert clicks > 0
    # The tap that was under way when the settlement opened did not close it unread; a
    # tap on the dimmed page once it has been read does.
    assert pg.evaluate("window.tappedThrough") == 1
    assert settlement_shown(pg)
    s = settlement(pg)
    hands = records(server, room["code"])
    assert len(hands) == 1
    check_settlement(s, hands[0]["end"], hands[0]["seats"])
    assert s["reveal"] == len(hands[0]["seats"])  # every hand revealed
    if hands[0]["end"]["record"]["outcome"] == "win":
        assert s["payments"], "a won hand shows its payments"
    assert pg.locator(".banner", has_text="牌局结束").count() == 1  # hands=1: over
    if variant == "taiwan":
        shot(pg, f"settlement-{variant}-{phone}", full_page=True)
    _tap_around_settlement_once_read(pg)


def _tap_around_settlement_once_read(pg: Page) -> None:
    """Tap the dimmed page beside the settlement (its top left corner) once it has been open
    for the tap guard (ui.js ``TAP_GUARD_MS``): it closes."""
    pg.evaluate("""async () => {  // the page's own clock, frame by frame
        const at = performance.now();
        while (performance.now() - at < 600) await new Promise((r) => requestAnimationFrame(r));
    }""")
    pg.mouse.click(2, 2)
    pg.wait_for_selector("[data-testid=settlement]", state="detached")


# --------------------------------------------------------------------------- 晃晃, a group

NAMES = ["大东", "小二", "阿三", "老四", "小五", "阿六", "七妹", "老八"]
SPECTATOR = "看客"


def _hand_number(title: str) -> int:
    """The hand of a settlement's title ("结算 · 第 3 局")."""
    return int(re.findall(r"\d+", title)[-1])


def _gather(browser: People, server: str, code: str, host: Page, people: list[str]
            ) -> dict[str, Page]:
    """Everyone but the host opens the room's link on a quiet phone and
    joins with their own name (both phone sizes), then the spectator."""
    pages = {people[0]: host}
    sizes = list(PHONES)
    for i, name in enumerate(people[1:], 1):
        pg = browser.page(PHONES[sizes[i % 2]], who=name)
        join_by_link(pg, server, code, name)
        pages[name] = pg
    watcher = browser.page(PHONES["390x844"], who=SPECTATOR)
    join_by_link(watcher, server, code, SPECTATOR, role="spectator")
    pages[SPECTATOR] = watcher
    return pages


HAND_S = 60.0
"""Seconds a hand of the group test may take, from the previous hand's settlement."""


def _play_group(pages: dict[str, Page], server: str, code: str, hands: int,
                shots: str) -> list[dict[str, Any]]:
    """Every person decides on their own page (a win, a claim, else their most isolated
    tile) and reads each hand's settlement, then closes it, until ``hands`` hands are over
    and somebody has had to 下桌 (then the host ends the match); the finished hands, each
    with ``shown``: what each page showed of it."""
    seen: dict[str, dict[int, Any]] = {who: {} for who in pages}
    done: list[dict[str, Any]] = []  # the finished hands, once the target is reached
    # A stall, not the match's length, fails it: the match may need more than ``hands``
    # hands before somebody has to 下桌 (the deals are random), so every hand gets its own
    # HAND_S from the first settlement of the hand before it.
    deadline = time.monotonic() + HAND_S
    latest = 0  # the newest hand whose settlement a page has shown
    idle: dict[str, int] = {who: 0 for who in pages}  # looks since the page was busy
    while not done or any(not set(range(1, len(done) + 1)) <= set(s) for s in seen.values()):
        assert time.monotonic() < deadline, ("settlements seen", {w: sorted(s) for w, s
                                                                   in seen.items()})
        busy = False
        for who, pg in pages.items():
            idle[who] += 1
            if idle[who] > 3 and idle[who] % 8:  # no hand of their own: a look now and then
                continue
            st = look(pg)
            if st["seated"]:
                idle[who] = 0
            if st["settlement"]:
                idle[who] = 0
                n = _hand_number(st["settlement"])
                if n > latest:
                    latest, deadline = n, time.monotonic() + HAND_S
                if n not in seen[who]:
                    seen[who][n] = settlement(pg)
                    seen[who][n]["waiting"] = pg.locator(
                        "[data-testid=waiting-banner]").count() > 0
                    if n == 1 and (who == SPECTATOR or seen[who][n]["waiting"]):
                        name = f"{shots}-hand1-{'spectator' if who == SPECTATOR else 'waiting'}"
                        shot(pg, name)
                        shot(pg, f"{name}-whole", "[data-testid=settlement]")
                    if not done and n >= hands:
                        ended = records(server, code)
                        if any(h["end"].get("left") for h in ended):
                            done = ended
                if not done or n < len(done):  # the reader closes it (the last one stays)
                    close_settlement(pg)
                busy = True
                continue
            if who == SPECTATOR:
                assert not st["acts"], "a spectator is offered an action"
                continue
            if st["window"] and any(a in CLAIMS for a in st["acts"]):
                check_hand_visible(pg)  # both phone sizes, 4 seats
            if not done and decide(pg, claim=True, seen=st):
                idle[who] = 0
                busy = True
        if not busy:
            pages[SPECTATOR].wait_for_timeout(POLL_MS)
    for i, h in enumerate(done):
        h["shown"] = {who: s[i + 1] for who, s in seen.items()}
    return done


def _an_earlier_hand(pg: Page, first: dict[str, Any]) -> None:
    """During the match, the first hand's settlement is a tap away in the ledger, and its
    replay (in a tab of its own) steps to that settlement."""
    if settlement_shown(pg):  # the last hand's, still open
        close_settlement(pg)
    pg.click(".tabs button:nth-child(2)")
    pg.click(".ledger-hand[data-hand='0']")
    pg.wait_for_selector("[data-testid=settlement] [data-hand='0']")
    assert settlement(pg)["headline"] == first["headline"]
    replay = pg.context.new_page()
    replay.goto(pg.eval_on_selector("[data-testid=hand-replay]", "a => a.href"))
    replay.click("[data-testid=last]")
    replay.wait_for_selector("[data-testid=replay-settlement]")
    assert first["headline"] in replay.inner_text("[data-testid=replay-settlement]")
    replay.close()
    close_settlement(pg)


@pytest.mark.parametrize(("n", "hands"), [(6, 3), (8, 2)])
def test_huanghuang_group_with_waiting_people_and_a_spectator(browser: People, server: str,
                                                              n: int, hands: int) -> None:
    """晃晃 of ``n`` people who join by the room's link, and a spectator: at least ``hands``
    hands, until somebody has had to 下桌. Every page shows every hand's settlement, the
    same on every page: payments, nets and 买马 horses by name, who 下桌 and who 上桌; an
    earlier hand's settlement and replay are a tap away during the match."""
    people = NAMES[:n]
    room = new_room(server, people[0], "huanghuang", hands=hands + 5)
    host = browser.page(PHONES["360x740"], who=people[0], senses=True)  # the group's sounds
    host.goto(room["link"])
    host.wait_for_selector("[data-testid=start]")
    # The share box: the room's link; this hall listens on loopback only (a friend's phone
    # could not open the link), so it shows no QR code but says how to start it for phones
    # (a QR code of a hall phones can reach: tests/test_table_page.py).
    assert f"/r/{room['code']}" in host.input_value("[data-testid=share-link]")
    host.wait_for_selector("[data-testid=share-local-only]")
    assert host.locator("[data-testid=share-qr]").count() == 0
    shot(host, f"sharebox-{n}-360x740", "[data-testid=sharebox]")
    pages = _gather(browser, server, room["code"], host, people)
    waiting = people[4:]
    for who in waiting:  # the waiting people are told so, with their 买马
        pages[who].wait_for_selector("[data-testid=waiting-banner]")
    # The last person waiting stops buying a horse; the others buy one (the default).
    last = pages[waiting[-1]]
    last.click("[data-testid=horse-toggle]")
    last.wait_for_selector("[data-testid=waiting-banner]:has-text('买马：否')")
    shot(pages[waiting[0]], f"huanghuang{n}-waiting-banner")
    host.click("[data-testid=start]")

    played = _play_group(pages, server, room["code"], hands, f"huanghuang{n}")

    horses = [h["person"] for h in played[0]["end"]["horses"]]
    assert waiting[0] in horses and waiting[-1] not in horses, horses
    for number, rec in enumerate(played, 1):
        end = rec["end"]
        for who, s in rec["shown"].items():
            check_settlement(s, end, list(end["net"]))
            assert len(s["horses"]) == len(end["horses"]), (who, number, s["horses"])
            for line, horse in zip(s["horses"], end["horses"], strict=True):
                assert bot_name(horse["person"]) in line, (who, number, line)
            for _, person in end.get("left", []):
                assert person in s["rotation"] and "下桌" in s["rotation"], (who, number, s)
            for _, person in end.get("entered", []):
                assert person in s["rotation"] and "上桌" in s["rotation"], (who, number, s)
        # Everyone saw the same settlement, the waiting and the spectator included.
        first = rec["shown"][people[0]]
        for who, s in rec["shown"].items():
            for key in ("headline", "payments", "nets", "horses", "rotation"):
                assert s[key] == first[key], (who, number, key)
        assert any(s["waiting"] for s in rec["shown"].values()), (number, "nobody waits")
    _an_earlier_hand(pages[SPECTATOR], played[0]["shown"][SPECTATOR])
    if settlement_shown(host):
        close_settlement(host)
    end_match(host)
    for pg in pages.values():  # the match is over on every page
        pg.wait_for_selector(".banner:has-text('牌局结束')")


# --------------------------------------------------------------------------- phones

@pytest.mark.parametrize(("variant", "phone"), [("mcr", "360x740"), ("taiwan", "390x844")])
def test_a_claim_prompt_leaves_the_hand_visible(browser: People, server: str, variant: str,
                                                phone: str) -> None:
    """In a 4-seat game on a phone, at every prompt to 碰 / 杠 / 吃 / 胡 of two whole hands
    (the hand sinks as the discards pile up), every tile of the hand and every button is
    on the screen and the claim bar covers none of the tiles."""
    room = new_room(server, "阿明", variant, hands=2)
    pg = open_as_host(browser, room, phone, "阿明")
    checked: list[dict[str, Any]] = []

    def each(seen: dict[str, Any]) -> None:
        if seen["settlement"] and "2" not in seen["settlement"]:
            close_settlement(pg)
        elif seen["window"] and any(a in CLAIMS for a in seen["acts"]):
            shot(pg, f"claim-prompt-{variant}-{phone}{'-late' if checked else ''}")
            checked.append(check_hand_visible(pg))

    play_until(pg, lambda: pg.locator(".banner", has_text="牌局结束").count() > 0,
               timeout=90, each=each)
    assert checked, "no claim was offered in two hands"


def test_a_person_is_never_prompted_only_to_pass(browser: People, server: str) -> None:
    """荆州 with two bots: the person answers their turns and the claim prompts they are
    shown, never one whose only button is 过 (the server answers those), and is never put
    on 托管 (a 10 s clock on every decision)."""
    room = new_room(server, "阿明", "jingzhou", hands=1, clock=10)
    pg = open_as_host(browser, room, "390x844", "阿明")
    prompts: list[list[str]] = []

    def each(seen: dict[str, Any]) -> None:
        assert seen["acts"] != ["pass"], f"a prompt whose only button is 过 ({len(prompts)} " \
            "real prompts before it)"
        assert not seen["auto"], "the person was put on 托管"
        if seen["window"] and seen["acts"]:
            prompts.append(seen["acts"])

    play_until(pg, lambda: settlement_shown(pg), each=each)
    assert pg.locator(".banner.auto").count() == 0
