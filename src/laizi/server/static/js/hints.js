// 听牌提示: what the server worked out for this seat (`hints` frames, laizi.engine.hints),
// shown as it is. Nothing here judges a hand: which discards leave it ready, the waits,
// the copies unseen and every payout come from the engine's own settlement.
//
// On your turn the ready discards are listed (and marked in the hand); choosing one here
// shows its waits without discarding it (a tap on the hand's tile still discards). When
// the hand is ready, its waits stay in view.
//
// A turn's frame may leave some discards' waits out (`waits: null`: the server's budget
// for a turn, reached in hands with wildcards ready on many discards); choosing one asks
// the server for them (`hint_waits`), once, and shows them when they come.
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { t } from "./i18n.js";
import { Tile, tileName } from "./tiles.js";
import { store, useStore } from "./store.js";
import { ServerOp } from "./protocol.js";

/** @typedef {import("./protocol.js").HintsJSON} HintsJSON */
/** @typedef {import("./protocol.js").WaitHintJSON} WaitHintJSON */

/** The hints to show now: those of this version; while the hand waits (not your turn),
 * the last waits too as long as your concealed tiles are the ones they were worked out
 * for (the next `hints` frame may come a moment after each move: the waits do not
 * flicker; their unseen counts are as of that frame).
 * @param {{version: number, hints: HintsJSON, hand: number[] | null} | null} got
 * @param {import("./protocol.js").StateFrame | null} frame
 * @param {boolean} myTurn
 * @returns {HintsJSON | null} */
export function currentHints(got, frame, myTurn) {
  if (!got || !frame) return null;
  if (got.version === frame.version) return got.hints;
  const same = Array.isArray(got.hand) && got.hand.length === frame.view.hand.length
    && got.hand.every((x, i) => x === frame.view.hand[i]);
  return !myTurn && got.hints.waits.length && same ? got.hints : null;
}

/** @type {((version: number, tile: number) => Promise<import("./protocol.js").Answer>) | null} */
let ask = null;
/** @type {Set<string>} the (version, tile) pairs asked for and not refused */
const asked = new Set();

/** How the panel asks the server for a discard's waits: set by the open table (null when
 * it closes).
 * @param {((version: number, tile: number) => Promise<import("./protocol.js").Answer>) | null} fn */
export function setHintAsk(fn) {
  ask = fn;
  asked.clear();
}

/** Ask once for the waits of ready discard `tile` in the hints of `version`; the answer
 * goes into the store's hints if they are still of that version.
 * @param {number} version @param {number} tile */
function askWaits(version, tile) {
  const key = `${version}:${tile}`;
  if (!ask || asked.has(key)) return;
  asked.add(key);
  ask(version, tile).then((ans) => {
    if (ans.op !== ServerOp.ACK || !ans.waits) { asked.delete(key); return; }
    const got = store.getState().hintGot;
    if (!got || got.version !== version) return;
    const waits = ans.waits;
    const discards = got.hints.discards.map((d) => (d.tile === tile ? { ...d, waits } : d));
    store.set({ hintGot: { ...got, hints: { ...got.hints, discards } } });
  });
}

/** This seat's hints now, from the store (null: none, or stale).
 * @returns {HintsJSON | null} */
export function useHints() {
  return useStore((s) => (s.inHand && s.mySeat !== null ? currentHints(s.hintGot, s.frame, s.myTurn) : null));
}

/** The tiles whose discard leaves the hand ready (to mark them in the hand).
 * @param {HintsJSON | null} hints */
export function readyDiscards(hints) {
  return new Set(hints ? hints.discards.map((d) => d.tile) : []);
}

const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

/** @param {[number, number] | null} range */
function onDiscard(range) {
  if (!range) return "—";
  return range[0] === range[1] ? signed(range[0]) : `${signed(range[0])}~${signed(range[1])}`;
}

/** One wait: the tile, its copies unseen, and what winning on it brings.
 * @param {{w: WaitHintJSON, wild: number | null}} props */
function Wait({ w, wild }) {
  return html`<li class=${`hint-wait ${w.unseen ? "" : "none-left"}`} data-testid="hint-wait" data-tile=${w.tile}
      data-unseen=${w.unseen} data-self-draw=${w.self_draw ?? ""} data-on-discard=${w.on_discard ? w.on_discard.join(",") : ""}
      aria-label=${`${tileName(w.tile)} ${t("hint_left", { n: w.unseen })} ${t("hint_self_draw")} ${w.self_draw === null ? "—" : signed(w.self_draw)} ${t("hint_on_discard")} ${onDiscard(w.on_discard)}`}>
    <${Tile} t=${w.tile} size="tiny" wild=${w.tile === wild} />
    <span class="left">${t("hint_left", { n: w.unseen })}</span>
    <span class="pay"><abbr title=${t("hint_self_draw_long")}>${t("hint_self_draw")}</abbr> ${w.self_draw === null ? "—" : signed(w.self_draw)}</span>
    <span class="pay"><abbr title=${t("hint_on_discard_long")}>${t("hint_on_discard")}</abbr> ${onDiscard(w.on_discard)}</span>
  </li>`;
}

/** @param {{waits: WaitHintJSON[], wild: number | null}} props */
function Waits({ waits, wild }) {
  const left = waits.reduce((n, w) => n + w.unseen, 0);
  return html`<div class="hint-waits">
    <ul>${waits.map((w) => html`<${Wait} key=${w.tile} w=${w} wild=${wild} />`)}</ul>
    <span class="muted small" data-testid="hint-total">${t("hint_total", { n: left })}</span>
  </div>`;
}

/** The hints panel in the dock. */
export function HintPanel() {
  const hints = useHints();
  const myTurn = useStore((s) => s.myTurn);
  const wild = useStore((s) => (s.frame ? s.frame.view.wildcard : null));
  const version = useStore((s) => (s.hintGot ? s.hintGot.version : null));
  const [chosen, setChosen] = useState(/** @type {number | null} */ (null));
  // The discard shown: the one chosen, else the first whose waits came with the turn.
  const pick = hints && hints.discards.length ? hints.discards.find((d) => d.tile === chosen)
    || hints.discards.find((d) => d.waits) || hints.discards[0] : null;
  const missing = myTurn && pick && !pick.waits ? pick.tile : null;
  useEffect(() => {
    if (missing !== null && version !== null) askWaits(version, missing);
  }, [version, missing]);
  if (!hints) return null;
  if (pick) {
    if (!myTurn) return null;  // as the hand marks them: on your turn
    return html`<section class="hints" data-testid="hints" aria-label=${t("hints")}>
      <div class="hint-head"><span class="hint-title">${t("hints_discard")}</span>
        <span class="hint-discards" role="group">${hints.discards.map((d) => html`<button type="button" key=${d.tile}
          class=${`hint-discard ${d.tile === pick.tile ? "chosen" : ""}`} data-testid="hint-discard" data-tile=${d.tile}
          aria-pressed=${d.tile === pick.tile ? "true" : "false"} aria-label=${t("hint_if", { tile: tileName(d.tile) })}
          onClick=${() => setChosen(d.tile)}><${Tile} t=${d.tile} size="tiny" wild=${d.tile === wild} /></button>`)}</span></div>
      <div class="hint-for" data-testid="hint-for" data-tile=${pick.tile}>${t("hint_if", { tile: tileName(pick.tile) })}</div>
      ${pick.waits ? html`<${Waits} waits=${pick.waits} wild=${wild} />`
        : html`<div class="hint-waits muted small" data-testid="hint-asking">${t("hint_asking")}</div>`}
    </section>`;
  }
  if (!hints.waits.length) return null;
  return html`<section class="hints ready" data-testid="hints" aria-label=${t("hints")}>
    <div class="hint-head"><span class="hint-title">${t("hints_ready")}</span></div>
    <${Waits} waits=${hints.waits} wild=${wild} />
  </section>`;
}
