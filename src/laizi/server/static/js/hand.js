// Your hand (tap a tile to discard it; a greyed-out tile says why not), your melds and
// the action bar, kept together in the dock at the bottom of the screen: a claim prompt
// never covers the hand it is about. The clock ticking does not re-render any of it.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "./i18n.js";
import { Meld } from "./board.js";
import { ActionBar } from "./actions.js";
import { useStore } from "./store.js";
import { HintPanel, readyDiscards, useHints } from "./hints.js";
import { Tile, tileName } from "./tiles.js";
import { actionVerb, displayName, seatWind, wildMark, wildcardWord } from "./words.js";
import { ActionType, Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").ActionJSON} ActionJSON */

const NONE = Object.freeze([]);
const NO_TILES = new Set();

// Why a tile of your hand cannot be discarded now, from what the server sent (a legal
// special kong of that tile, a locked Taiwan hand in the view, the wildcard): the rules
// stay on the server, this only names them.
function refusal(tile, legal, view, me, variant) {
  const special = legal.find((a) => a.type === ActionType.SPECIAL_KONG && a.tile === tile);
  if (special) return t("why_special", { tile: tileName(tile), action: actionVerb(special, view.wildcard, view.phase, variant) });
  const x = view.extra || {};
  if (x.declared && x.declared[me]) return t("why_locked");
  if (x.declaring === me) return t("why_declaring");
  if (tile === view.wildcard) return t("why_wild", { tile: tileName(tile), wild: wildcardWord(variant) });
  return t("why_other", { tile: tileName(tile) });
}

/** @param {{act: (a: ActionJSON) => void, explain: (why: string) => void}} props */
export function Hand({ act, explain }) {
  const frame = useStore((s) => s.frame);
  const myTiles = useStore((s) => s.myTiles);
  const myTurn = useStore((s) => s.myTurn);
  const discardable = useStore((s) => s.discardable);
  const pending = useStore((s) => s.pending);
  const sel = useStore((s) => s.sel);
  const mySeat = useStore((s) => s.mySeat);
  const hints = useHints();
  const readyAfter = myTurn ? readyDiscards(hints) : NO_TILES;
  const view = frame.view;
  const variant = view.table.variant;
  const wild = view.wildcard;
  return html`<div class="myhand" role="group" aria-label=${t("hand_of", { name: t("you") })}
      style=${`--n:${Math.max(myTiles.tiles.length, 14)}`}>
      ${myTiles.tiles.map((x, i) => {
        const can = myTurn && discardable.has(x) && !pending;
        const key = can ? JSON.stringify(discardable.get(x)) : null;
        const why = myTurn && !discardable.has(x) ? refusal(x, frame.legal, view, mySeat, variant) : null;
        return html`<${Tile} key=${`${i}-${x}`} t=${x} size="big" wild=${x === wild} wildMark=${wildMark(variant)}
          cls=${`${i === myTiles.drawnAt ? "drawn" : ""} ${readyAfter.has(x) ? "ready-discard" : ""}`} selected=${sel === i}
          pending=${pending !== null && pending === key} dim=${myTurn && !discardable.has(x)}
          onClick=${myTurn ? () => { if (can) act(discardable.get(x)); else if (why) explain(why); } : undefined}
          unavailable=${myTurn ? !can : undefined} reason=${why}
          label=${why || (myTurn ? `${actionVerb({ type: ActionType.DISCARD }, wild, Phase.TURN, variant)} ${tileName(x)}` : undefined)} />`;
      })}
    </div>`;
}

// Who you are at this table (your wind, 庄, your score): your seat's own header is on the
// board, under the dock until the page is scrolled to its end.
function DockHead({ scores }) {
  const frame = useStore((s) => s.frame);
  const mySeat = useStore((s) => s.mySeat);
  const names = useStore((s) => s.handNames);
  const myName = useStore((s) => s.myName);
  const view = frame.view;
  const autoMe = myName && frame.room.auto.includes(myName);
  const myScore = scores ? scores[mySeat] : undefined;
  return html`<div class="dock-head" data-testid="dock-head">
    <span class="wind" title=${seatWind(mySeat, view.dealer, view.seats, true)}>${seatWind(mySeat, view.dealer, view.seats)}</span>
    <span class="who">${displayName(names[mySeat])} <em>(${t("you")})</em></span>
    ${mySeat === view.dealer ? html`<span class="tag dealer" title=${t("dealer_long")}>${t("dealer")}</span>` : ""}
    ${autoMe ? html`<span class="tag auto">${t("auto_short")}</span>` : ""}
    <span class="score" data-testid="dock-score">${myScore === undefined ? "" : myScore > 0 ? `+${myScore}` : myScore}</span>
  </div>`;
}

// The dock's height (--dock-h): the space a settlement open over the table leaves free for
// the dock while the person has something to do.
function useDockHeight(ref) {
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== "function") return undefined;
    const page = el.closest(".table-page");
    const ro = new ResizeObserver(() => { if (page) page.style.setProperty("--dock-h", `${Math.ceil(el.getBoundingClientRect().height)}px`); });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
}

/** @param {{act: (a: ActionJSON) => void, scores?: number[], extra?: any}} props */
export function Dock({ act, scores, extra }) {
  const myTurn = useStore((s) => s.myTurn);
  const melds = useStore((s) => (s.frame && s.mySeat !== null ? s.frame.view.melds[s.mySeat] || NONE : NONE));
  const frame = useStore((s) => s.frame);
  const mySeat = useStore((s) => s.mySeat);
  const names = useStore((s) => s.handNames);
  const ref = useRef(null);
  useDockHeight(ref);
  // A tap on a greyed-out tile says why it cannot be discarded (its title says it too).
  const [hint, setHint] = useState("");
  const timer = useRef(null);
  const explain = (why) => {
    setHint(why);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setHint(""), 4000);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const view = frame.view;
  return html`<div class="dock" data-testid="dock" ref=${ref}>
    <${DockHead} scores=${scores} />
    ${hint && myTurn ? html`<div class="hint" role="status" data-testid="tile-hint">${hint}</div>` : ""}
    ${extra || ""}
    <${HintPanel} />
    <div class="dock-hand"><${Hand} act=${act} explain=${explain} />${melds.length ? html`<div class="mymelds" aria-label=${t("melds")}>
      ${melds.map((m, i) => html`<${Meld} key=${i} m=${m} owner=${mySeat} n=${view.seats} names=${names} wild=${view.wildcard} variant=${view.table.variant} size="tiny" />`)}</div>` : ""}</div>
    <${ActionBar} act=${act} />
  </div>`;
}
