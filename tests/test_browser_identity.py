"""People in the browser (issue 41): the lobby makes this device's identity silently, a
room created there is in 我的战绩, the recovery code shown on one phone restores the
identity on another (a second browser context) with the same 战绩, and a device link
(QR) adds a third, which the first then drops (a lost phone); at phone sizes, against a
real ``laizi serve``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import browser_helpers
from browser_helpers import FAST, PHONES, People, play_until, settlement_shown, shot

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)


def _history_shows(pg: Page, code: str) -> None:
    pg.click("[data-testid=show-history]")
    pg.wait_for_selector(f"[data-testid=my-history] li[data-room='{code}']")


def _play_one_hand(pg: Page, server: str) -> str:
    """A one-hand room of this page's person (its credential from the page's storage),
    played to its end on the page; its code."""
    import httpx

    person = pg.evaluate("localStorage.getItem('laizi.person')")
    r = httpx.post(f"{server}/api/rooms", headers={"X-Laizi-Person": person}, json={
        "name": "阿明", "settings": {"variant": "jingzhou", **FAST, "hands": 1}})
    assert r.status_code == 201, r.text
    pg.goto(server + r.json()["link"] if r.json()["link"].startswith("/") else r.json()["link"])
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    play_until(pg, lambda: settlement_shown(pg))
    return str(r.json()["code"])


def test_a_recovery_code_and_a_device_link_bring_the_identity_to_other_phones(
        browser: People, server: str) -> None:
    a = browser.page(PHONES["360x740"], who="phone A")
    a.goto(f"{server}/")
    a.fill("#player-name", "阿明")
    a.wait_for_selector("[data-testid=account-who]")  # the identity, made silently
    a.click("[data-testid=create-form] button[type=submit]")
    a.wait_for_selector(".table-page")
    code = a.url.split("/r/")[1].split("?")[0]
    played = _play_one_hand(a, server)
    a.goto(f"{server}/")
    _history_shows(a, code)
    a.wait_for_selector(f"[data-testid=my-history] li[data-room='{played}']")
    stats = a.inner_text("[data-testid=history-stats] tbody")
    assert "荆州" in stats and "\t1\t" in stats, stats  # one hand of 荆州 counted
    shot(a, "identity-history-360x740", "[data-testid=my-history]")
    a.click("[data-testid=show-code]")
    shown = a.inner_text("[data-testid=recovery-code]").strip()
    assert [len(g) for g in shown.split("-")] == [5, 5, 5, 5], shown
    shot(a, "identity-account-360x740", "[data-testid=account]")

    b = browser.page(PHONES["390x844"], who="phone B")
    b.goto(f"{server}/")
    b.wait_for_selector("[data-testid=account-who]")  # a guest identity of its own
    b.click("[data-testid=show-history]")
    b.wait_for_selector("[data-testid=history-empty]")  # none of A's 战绩
    b.fill("#recover-code", shown.lower().replace("-", " "))
    b.click("[data-testid=restore-form] button[type=submit]")
    b.wait_for_selector(f"[data-testid=my-history] li[data-room='{code}']")
    assert "阿明" in b.inner_text("[data-testid=account-who]")
    assert b.inner_text("[data-testid=my-history]") == a.inner_text("[data-testid=my-history]")
    shot(b, "identity-restored-390x844")

    a.click("[data-testid=add-device]")
    a.wait_for_selector("[data-testid=device-link] img.qr")
    link = a.get_attribute("[data-testid=device-link]", "data-link")
    assert link is not None and link.startswith(f"{server}/me/link/")
    shot(a, "identity-device-link-360x740", "[data-testid=account]")
    c = browser.page(PHONES["360x740"], who="phone C")
    c.goto(link)
    c.click("[data-testid=take-link]")
    c.wait_for_selector("[data-testid=link-page] a[href='/']")
    c.goto(f"{server}/")
    _history_shows(c, code)
    assert "3" in c.inner_text("[data-testid=account-who]")  # three devices

    # 移除设备: phone A drops phone C (lost); C's identity is refused from then on, and
    # B, another of the person's devices, keeps working.
    a.on("dialog", lambda d: d.accept())
    a.click("[data-testid=show-devices]")
    a.wait_for_selector("[data-testid=devices] li >> nth=2")
    assert a.locator("[data-testid=devices] li").count() == 3
    assert a.locator("[data-testid=drop-device]").count() == 2  # none on this device
    c_credential = c.evaluate("localStorage.getItem('laizi.person')")
    import httpx

    ids = httpx.get(f"{server}/api/me/devices", headers={"X-Laizi-Person": c_credential})
    c_id = next(d["id"] for d in ids.json()["devices"] if d["current"])
    shot(a, "identity-devices-360x740", "[data-testid=account]")
    a.click(f"[data-testid=devices] li[data-device='{c_id}'] [data-testid=drop-device]")
    a.wait_for_selector(f"[data-testid=devices] li[data-device='{c_id}']", state="detached")
    assert a.locator("[data-testid=devices] li").count() == 2
    gone = httpx.get(f"{server}/api/me", headers={"X-Laizi-Person": c_credential})
    assert gone.status_code == 401 and gone.json()["error"]["code"] == "unknown_person"
    b_credential = b.evaluate("localStorage.getItem('laizi.person')")
    assert httpx.get(f"{server}/api/me",
                     headers={"X-Laizi-Person": b_credential}).status_code == 200
