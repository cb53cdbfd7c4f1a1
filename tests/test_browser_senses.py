"""The table's senses in chromium (static/js/sound.js, motion.js, the store and its bus),
on phone viewports against ``laizi serve`` with bots, every page watched for page and
console errors (browser_helpers.People):

* speech, WebAudio and vibration are stubbed before the page loads (they record their
  calls): a discard says its tile's name (三万, 红中 …), a claim or a win is called aloud
  (碰 / 吃 / 杠 / 胡 / 自摸) as the log shows it, the turn alert buzzes, and a discard
  travels to the river (a motion class); the AudioContext is suspended between tones and
  resumed for the next;
* muted, the table says nothing, plays no tone and never buzzes, and the mute is
  remembered after a reload (localStorage);
* the frame that catches up after a reconnection (events the page missed) is neither
  heard, buzzed nor moved; a phone without speech, WebAudio or vibration plays on with
  no error;
* a person who asks for reduced motion gets no motion class and no CSS animation;
* the clock ticks without re-rendering the hand (Preact's render hook counts each
  component's renders; the hand's DOM nodes stay the same ones);
* the sound control at 360x740 and 390x844 (screenshots with ``LAIZI_SHOTS``).

Rooms use the fast settings (browser_helpers.FAST), the clock test a 20 s clock.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
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
    play_until,
    settlement_shown,
    shot,
)
from conditions import POLL_MS

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)

# Speech, WebAudio and vibration that record their calls in window.__senses; and every
# motion class the page adds (a MutationObserver), with the CSS animations then running.
STUBS = """(() => {
  const rec = window.__senses = {spoken: [], tones: 0, contexts: 0, vibrated: [], motion: [],
                                 animations: 0, state: null, resumed: 0, asleep: 0};
  class Utterance { constructor(text) { this.text = text; this.lang = ''; this.volume = 1;
                                        this.rate = 1; this.voice = null; } }
  const voices = [{lang: 'en-US', name: 'en'}, {lang: 'zh-CN', name: 'zh'}];
  const synth = {speaking: false, pending: false, getVoices: () => voices, cancel() {},
    speak(u) { rec.spoken.push({text: u.text, lang: u.lang, voice: u.voice && u.voice.lang}); },
    addEventListener() {}, removeEventListener() {}};
  Object.defineProperty(window, 'speechSynthesis', {value: synth, configurable: true});
  window.SpeechSynthesisUtterance = Utterance;
  class Param { setValueAtTime() {} exponentialRampToValueAtTime() {} }
  class Node {
    constructor() { this.gain = new Param(); this.frequency = new Param(); this.type = ''; }
    connect(n) { return n; } stop() {}
    start() { rec.tones += 1; if (rec.state !== 'running') rec.asleep += 1; } }
  window.AudioContext = class { constructor() { rec.contexts += 1; this.state = 'running';
      rec.state = 'running'; this.currentTime = 0; this.destination = new Node(); }
    createOscillator() { return new Node(); } createGain() { return new Node(); }
    suspend() { this.state = rec.state = 'suspended'; return Promise.resolve(); }
    resume() { this.state = rec.state = 'running'; rec.resumed += 1; return Promise.resolve(); } };
  Object.defineProperty(Navigator.prototype, 'vibrate', {configurable: true,
    value: (p) => { rec.vibrated.push(p); return true; }});
  new MutationObserver((changes) => {
    for (const c of changes) {
      const cls = c.target.className;
      if (typeof cls === 'string' && cls.includes('motion-')) rec.motion.push(cls);
    }
    const css = document.getAnimations().filter((a) => a.animationName).length;
    rec.animations = Math.max(rec.animations, css);
  }).observe(document, {attributes: true, attributeFilter: ['class'], subtree: true});
})();"""

CALLS = ("碰", "吃", "杠", "胡", "自摸")
NUM = "一二三四五六七八九"
HONOURS = ["东风", "南风", "西风", "北风", "白板", "发财", "红中"]


def spoken_name(tile: int) -> str:
    """A tile's name as the table says it (sound.js ``spokenName``)."""
    if tile < 27:
        return NUM[tile % 9] + "万筒条"[tile // 9]
    return HONOURS[tile - 27]


def senses(pg: Page) -> dict[str, Any]:
    found: dict[str, Any] = pg.evaluate("() => window.__senses")
    return found


def said(pg: Page) -> list[str]:
    return [s["text"] for s in senses(pg)["spoken"]]


def until(pg: Page, ok: Callable[[], bool], what: str, timeout: float = 30) -> None:
    """Wait for ``ok()``, looking again at every frame the page draws."""
    deadline = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < deadline, what
        pg.wait_for_timeout(POLL_MS)


def open_table(browser: People, room: dict[str, Any], phone: str, who: str,
               **options: Any) -> Page:
    pg = browser.page(PHONES[phone], who=who, senses=True, **options)
    pg.add_init_script(STUBS)
    pg.goto(room["link"])
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    return pg


def to_my_turn(pg: Page, timeout: float = 60) -> dict[str, Any]:
    """Pass or decide every prompt until it is this person's turn to discard (a settlement
    on show is closed)."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "never my turn"
        seen = look(pg)
        if seen["settlement"]:
            close_settlement(pg)
        elif seen["tiles"] and seen["pick"] >= 0 and not seen["window"]:
            return seen
        elif seen["acts"]:
            decide(pg, seen=seen)
        else:
            pg.wait_for_timeout(POLL_MS)


def discard_one(pg: Page, seen: dict[str, Any]) -> int:
    """Discard the hand's most isolated tile; which tile it was."""
    tile = pg.locator(".myhand .tile").nth(seen["pick"])
    value = int(tile.get_attribute("data-tile") or "-1")
    tile.click()
    return value


def test_discards_claims_and_wins_are_heard_and_your_turn_buzzes(browser: People,
                                                                 server: str) -> None:
    room = new_room(server, "阿明", "jingzhou", hands=8)
    pg = open_table(browser, room, "360x740", "阿明")
    # The turn alert: a tone and a buzz once a prompt is up.
    seen = to_my_turn(pg)
    until(pg, lambda: bool(senses(pg)["vibrated"]), "no buzz on my turn")
    assert senses(pg)["tones"] > 0 and senses(pg)["contexts"] == 1
    # My discard: its name, in Mandarin with the zh voice; it travels to the river.
    tile = discard_one(pg, seen)
    until(pg, lambda: spoken_name(tile) in said(pg), f"{spoken_name(tile)} never said")
    zh = [s for s in senses(pg)["spoken"] if s["text"] == spoken_name(tile)]
    assert zh[0]["lang"] == "zh-CN" and zh[0]["voice"] == "zh-CN", zh
    until(pg, lambda: any("motion-discard" in c for c in senses(pg)["motion"]),
          "the discard did not travel")
    # Between tones the context is suspended (a running one renders silence all the
    # time: the phone's battery), and resumed for the next tone.
    until(pg, lambda: senses(pg)["state"] == "suspended", "the audio never went quiet")
    quiet = senses(pg)
    # Claims taken, hands played, until a claim or a win has been called aloud since
    # (one called before the context went quiet, e.g. a kong before this discard, shows
    # no tone waking it).
    after = len(quiet["spoken"])
    play_until(pg, lambda: any(w in CALLS for w in said(pg)[after:]), timeout=240,
               claim=True, each=lambda s: close_settlement(pg) if s["settlement"] else None)
    words = said(pg)
    call = next(w for w in words[after:] if w in CALLS)
    # … as the log says it: a claim line with that meld, or the win.
    line = {"碰": ".ev-claim:has-text('碰')", "吃": ".ev-claim:has-text('吃')",
            "杠": "li:has-text('杠')", "胡": ".ev-end", "自摸": ".ev-end"}[call]
    pg.wait_for_selector(f".feed {line}", state="attached")
    # … and seen: a claimed tile pulled into its meld, a winner's hand revealed.
    moved = {"碰": "motion-claim", "吃": "motion-claim", "胡": "motion-reveal",
             "自摸": "motion-reveal"}.get(call)
    if moved:
        until(pg, lambda: any(moved in c for c in senses(pg)["motion"]), f"no {moved}")
    names = {spoken_name(t) for t in range(34)}
    assert set(words) <= names | set(CALLS) | {"听"}, words  # nothing else is said
    woke = senses(pg)
    assert woke["tones"] > quiet["tones"] and woke["resumed"] > quiet["resumed"], woke
    assert woke["asleep"] == 0 and woke["contexts"] == 1, woke  # no tone into a sleeping one


def test_mute_is_silent_and_remembered_after_a_reload(browser: People, server: str) -> None:
    room = new_room(server, "阿强", "jingzhou", hands=3)
    pg = open_table(browser, room, "390x844", "阿强")
    pg.click("[data-testid=sound-button]")
    pg.check("[data-testid=sound-mute]")
    assert pg.inner_text("[data-testid=sound-button]") == "🔇"
    shot(pg, "senses-sound-muted-390x844")
    pg.reload()
    pg.wait_for_selector(".myhand")
    assert pg.inner_text("[data-testid=sound-button]") == "🔇"  # remembered
    pg.click("[data-testid=sound-button]")
    assert pg.is_checked("[data-testid=sound-mute]")
    assert pg.is_disabled("[data-testid=sound-volume]")
    pg.click("[data-testid=sound-button]")  # closes the panel
    # Turns and discards go by, silent: no word, no tone, no buzz.
    for _ in range(3):
        seen = to_my_turn(pg)
        discard_one(pg, seen)
    quiet = senses(pg)
    assert quiet["spoken"] == [] and quiet["tones"] == 0 and quiet["vibrated"] == [], quiet
    # Unmuted, the next discard is heard again. (A hand that ends meanwhile puts its
    # settlement over the page: closed first, as a person would.)
    for _ in range(5):
        if settlement_shown(pg):
            close_settlement(pg)
        if not pg.is_visible("[data-testid=sound-mute]"):
            pg.click("[data-testid=sound-button]")
        with contextlib.suppress(PlaywrightError):
            pg.uncheck("[data-testid=sound-mute]", timeout=5_000)
            break
    assert pg.inner_text("[data-testid=sound-button]") != "🔇"
    tile = discard_one(pg, to_my_turn(pg))
    until(pg, lambda: spoken_name(tile) in said(pg), "unmuted and still silent")


def test_reduced_motion_moves_nothing(browser: People, server: str) -> None:
    room = new_room(server, "阿华", "jingzhou", hands=3)
    pg = open_table(browser, room, "360x740", "阿华", reduced_motion="reduce")
    for _ in range(3):
        discard_one(pg, to_my_turn(pg))
    moved = senses(pg)
    assert moved["motion"] == [] and moved["animations"] == 0, moved
    assert moved["spoken"], "the sound still plays with reduced motion"


# The page's websockets, kept where the test can close one.
SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__ws = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__ws.push(this); }
  };
})();"""

# Discard the hand's tile `i` and cut the connection at once: the server plays the
# discard and the bots' answers while the page is away.
DISCARD_AND_CUT = """(i) => {
  const tile = document.querySelectorAll('.myhand .tile')[i];
  const page = document.querySelector('.table-page');
  const before = {said: window.__senses.spoken.length, tones: window.__senses.tones,
                  buzzed: window.__senses.vibrated.length,
                  moved: window.__senses.motion.length,
                  version: Number(page.dataset.version)};
  tile.click();
  window.__ws[window.__ws.length - 1].close();
  return before;
}"""


def test_a_reconnection_replays_nothing_of_the_past(browser: People, server: str) -> None:
    """The first frame after a reconnection catches up with what was missed: its events
    fill the log but are neither heard, buzzed nor moved (a snapshot neither)."""
    room = new_room(server, "阿玲", "jingzhou", hands=3)
    pg = browser.page(PHONES["390x844"], who="阿玲", senses=True)
    pg.add_init_script(STUBS + SOCKETS)
    pg.goto(room["link"])
    pg.click("[data-testid=start]")
    seen = to_my_turn(pg)
    assert senses(pg)["vibrated"], "my turn buzzed"
    before = pg.evaluate(DISCARD_AND_CUT, seen["pick"])
    until(pg, lambda: pg.evaluate("() => window.__ws.length") == 2, "no reconnection")
    until(pg, lambda: int(pg.get_attribute(".table-page", "data-version") or 0)
          > before["version"] + 1, "the missed events never came")
    pg.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    after = senses(pg)
    assert after["spoken"][before["said"]:] == [], after  # not my discard, nor the bots'
    assert after["tones"] == before["tones"] and len(after["vibrated"]) == before["buzzed"]
    assert after["motion"][before["moved"]:] == [], after
    tile = discard_one(pg, to_my_turn(pg))  # what happens next is heard again
    until(pg, lambda: spoken_name(tile) in said(pg), "the next discard was not heard")


# A phone without speech, WebAudio or vibration.
WITHOUT = """(() => {
  Object.defineProperty(window, 'speechSynthesis', {value: undefined, configurable: true});
  window.SpeechSynthesisUtterance = undefined;
  window.AudioContext = undefined;
  window.webkitAudioContext = undefined;
  delete Navigator.prototype.vibrate;
})();"""


def test_a_phone_without_speech_audio_or_vibration_plays_on(browser: People,
                                                            server: str) -> None:
    """Nothing to play with: the table goes on, with no page or console error (the
    browser fixture fails the test on any)."""
    room = new_room(server, "阿伟", "jingzhou", hands=3)
    pg = browser.page(PHONES["360x740"], who="阿伟", senses=True)
    pg.add_init_script(WITHOUT)
    pg.goto(room["link"])
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    assert pg.evaluate("() => typeof navigator.vibrate") == "undefined"
    for _ in range(3):
        discard_one(pg, to_my_turn(pg))
    pg.click("[data-testid=sound-button]")
    pg.fill("[data-testid=sound-volume]", "40")  # its sample tone: no context, silence
    assert pg.locator(".myhand .tile").count() > 0


# Counts each component's renders through Preact's `options.diffed` for `ms` of the
# page's own clock, and whether the hand's DOM nodes stayed the same ones.
COUNT_RENDERS = """async (ms) => {
  const { options } = await import('preact');  // the page's own Preact (its import map)
  const counts = {};
  const before = options.diffed;
  options.diffed = (vnode) => {
    const name = typeof vnode.type === 'function' ? vnode.type.name : null;
    if (name) counts[name] = (counts[name] || 0) + 1;
    if (before) before(vnode);
  };
  const hand = document.querySelector('.myhand');
  const tiles = [...hand.querySelectorAll('.tile')];
  const shown = [];
  const at = performance.now();
  while (performance.now() - at < ms) {
    await new Promise((r) => requestAnimationFrame(r));
    const c = document.querySelector('.clock span');
    if (c && shown[shown.length - 1] !== c.textContent) shown.push(c.textContent);
  }
  options.diffed = before;
  const now = document.querySelector('.myhand');
  return {counts, shown, sameHand: now === hand,
          sameTiles: tiles.every((t, i) => now.querySelectorAll('.tile')[i] === t)};
}"""


@pytest.mark.parametrize("phone", ["360x740", "390x844"])
def test_the_clock_ticks_without_rendering_the_hand(browser: People, server: str,
                                                    phone: str) -> None:
    room = new_room(server, "阿芳", "jingzhou", hands=1, clock=20)
    pg = open_table(browser, room, phone, "阿芳")
    to_my_turn(pg)
    pg.wait_for_selector(".clock span")
    found = pg.evaluate(COUNT_RENDERS, 2600)
    assert len(found["shown"]) >= 3, found  # the countdown moved: 20, 19, 18 …
    assert found["counts"].get("Clock", 0) >= 10, found  # every 200 ms
    for part in ("Hand", "Dock", "Table", "ActionBar", "Board"):
        assert found["counts"].get(part, 0) == 0, (part, found)
    assert found["sameHand"] and found["sameTiles"], found
    # The sound control, open, on the phone.
    pg.click("[data-testid=sound-button]")
    pg.wait_for_selector("[data-testid=sound-panel]")
    box = pg.locator("[data-testid=sound-panel]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONES[phone]["width"]
    shot(pg, f"senses-sound-control-{phone}")
