// The action bar (the prompt, the clock, your legal actions as buttons) and the keyboard:
// ←/→ pick a tile, Enter/↑ discard it, a letter or a digit for each button.
import { html } from "htm/preact";
import { useEffect } from "preact/hooks";
import { getLang, t } from "./i18n.js";
import { Clock } from "./clock.js";
import { store, useStore } from "./store.js";
import { Tile } from "./tiles.js";
import { actionLabel, actionVerb, displayName, wildMark } from "./words.js";
import { ActionType, Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").ActionJSON} ActionJSON */

/** @type {Record<string, string>} */
const LETTER = { [ActionType.WIN]: "h", [ActionType.PUNG]: "p", [ActionType.KONG]: "k",
  [ActionType.CONCEALED_KONG]: "k", [ActionType.ADDED_KONG]: "k", [ActionType.SPECIAL_KONG]: "k",
  [ActionType.CHOW]: "c", [ActionType.PASS]: " ", [ActionType.DECLARE]: "t",
  [ActionType.FLOWER_WIN]: "f", [ActionType.ROB_FLOWER]: "f" };

// Keys for the buttons: a letter for the first of each kind (H 胡, P 碰, K 杠, C 吃,
// Space 过, T 听, F 花), then digits.
/** @param {ActionJSON[]} actions @returns {Array<[ActionJSON, string]>} */
export function buttonKeys(actions) {
  const used = new Set();
  let digit = 1;
  return actions.map((a) => {
    let key = LETTER[a.type];
    if (!key || used.has(key)) key = String(digit++);
    used.add(key);
    return [a, key];
  });
}

function promptLine(view, names, me) {
  if (view.phase === Phase.CLAIM && view.last_discard) {
    return t("claim_prompt", { name: view.last_discard.seat === me ? t("you") : displayName(names[view.last_discard.seat]) });
  }
  if (view.phase === Phase.ROB && view.robbing) return t("rob_prompt", { name: displayName(names[view.robbing.seat]) });
  const asking = view.extra && view.extra.asking;
  if (asking && asking.kind === "heavenly") return t("decide_heavenly");
  if (asking && asking.kind === "rob") return t("decide_rob_flower", { name: displayName(names[asking.victim]) });
  return t("decide_prompt");
}

// The keyboard, read from the store when a key is pressed (no render depends on it).
/** @param {(a: ActionJSON) => void} act */
export function useKeys(act) {
  useEffect(() => {
    /** @param {KeyboardEvent} e */
    function onKey(e) {
      const target = /** @type {HTMLElement | null} */ (e.target);
      if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const s = store.getState();
      const k = e.key.toLowerCase();
      const ts = s.myTiles.tiles;
      if (s.myTurn && (k === "arrowleft" || k === "arrowright")) {
        if (!ts.length) return;
        const cur = s.sel === null ? (k === "arrowleft" ? ts.length : -1) : s.sel;
        store.set({ sel: (cur + (k === "arrowleft" ? -1 : 1) + ts.length) % ts.length });
        e.preventDefault();
        return;
      }
      if (s.myTurn && (k === "enter" || k === "arrowup") && s.sel !== null) {
        const a = s.discardable.get(ts[s.sel]);
        if (a) { act(a); e.preventDefault(); }
        return;
      }
      const hit = buttonKeys(s.others).find(([, key]) => key === k || (k === "spacebar" && key === " "));
      if (hit) { act(hit[0]); e.preventDefault(); }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [act]);
}

/** @param {{act: (a: ActionJSON) => void}} props */
export function ActionBar({ act }) {
  const frame = useStore((s) => s.frame);
  const myTurn = useStore((s) => s.myTurn);
  const windowOpen = useStore((s) => s.windowOpen);
  const others = useStore((s) => s.others);
  const pending = useStore((s) => s.pending);
  const names = useStore((s) => s.handNames);
  const mySeat = useStore((s) => s.mySeat);
  const inHand = useStore((s) => s.inHand);
  if (!frame) return null;
  const view = frame.view;
  const wild = view.wildcard;
  const phase = view.phase;
  const variant = view.table.variant;
  const prompt = windowOpen ? promptLine(view, names, mySeat) : myTurn ? t("my_turn") : null;
  const waitingFor = inHand && !frame.legal.length && phase === Phase.TURN
    ? t("waiting_for", { name: displayName(names[view.turn]) }) : null;
  return html`<div class=${`actionbar ${windowOpen ? "window" : ""} ${myTurn ? "myturn" : ""}`} data-testid="actionbar">
    ${prompt ? html`<div class="prompt">
      <span>${prompt}</span>
      ${windowOpen && view.last_discard ? html`<${Tile} t=${view.last_discard.tile} size="small" last=${true} wild=${view.last_discard.tile === wild} wildMark=${wildMark(variant)} />` : ""}
      ${windowOpen && view.robbing ? html`<${Tile} t=${view.robbing.tile} size="small" last=${true} />` : ""}
    </div>` : waitingFor ? html`<div class="prompt muted">${waitingFor}</div>` : ""}
    <${Clock} />
    ${others.length ? html`<div class="buttons">${buttonKeys(others).map(([a, key]) => html`<button type="button"
        key=${JSON.stringify(a)} class=${`act act-${a.type}`} data-action=${a.type}
        disabled=${pending !== null} aria-keyshortcuts=${key === " " ? "Space" : key.toUpperCase()}
        onClick=${() => act(a)}>${a.type === ActionType.CHOW ? html`${actionVerb(a, wild, phase, variant)} ${a.tiles.map((x, i) => html`<${Tile} key=${i} t=${x} size="tiny" />`)}` : actionLabel(a, wild, phase, variant)}
        <kbd>${key === " " ? (getLang() === "zh" ? "空格" : "Space") : key.toUpperCase()}</kbd></button>`)}</div>` : ""}
    ${view.passed_win && inHand ? html`<div class="note">${t("passed_win")}</div>` : ""}
  </div>`;
}
