// The table's store: one place that folds the server's `state` frames (docs/hall.md)
// into one state object and derives, once per frame, what every component asks — my
// turn, a claim window open, the tiles I may discard, in a hand, between hands. Components
// read it with `useStore(selector)` and re-render only when what they selected changes;
// the clock alone ticks (clock.js), so the page no longer re-renders every 200 ms.
//
// Each frame's events then go to the event bus (bus.js), where sound, motion and haptics
// listen: they never hang from component code. One table a page: the store is a module.
import { useEffect, useRef, useState } from "preact/hooks";
import { bus, LocalEvent } from "./bus.js";
import { ActionType, Phase, TableEventType } from "./protocol.js";

/** @typedef {import("./protocol.js").StateFrame} StateFrame */
/** @typedef {import("./protocol.js").ActionJSON} ActionJSON */
/** @typedef {import("./protocol.js").EventJSON} EventJSON */

// The phases in which a seat answers someone else's move (a claim prompt, 抢杠, 天听 …).
const WINDOWS = [Phase.CLAIM, Phase.ROB, Phase.DECIDE];
const FEED_MAX = 300;

/**
 * @typedef {object} TableState
 * @property {StateFrame | null} frame     the last frame
 * @property {string} status               connecting / open / reconnecting / gone
 * @property {any} gone                    the error that ended the connection
 * @property {{name: string, role: string, host: boolean} | null} me
 * @property {any[]} records               the room's finished hands (GET …/records)
 * @property {boolean} loaded              the records arrived once
 * @property {EventJSON[]} feed            the events of the log (a snapshot starts it over)
 * @property {number | null} endAt         performance.now() when the clock runs out
 * @property {string | null} pending       the move sent and not yet answered
 * @property {number | null} sel           the hand's tile chosen by the keyboard
 * @property {number | null} shown         the hand whose settlement is open
 * @property {boolean} inHand
 * @property {number | null} mySeat
 * @property {string | null} phase
 * @property {boolean} myTurn              my turn, with something to do
 * @property {boolean} windowOpen          a claim (or 抢杠 / 天听) prompt is up for me
 * @property {Map<number, ActionJSON>} discardable  tile → its discard action
 * @property {ActionJSON[]} others         the legal actions that are buttons
 * @property {boolean} between             between two hands of a running match
 * @property {{tiles: number[], drawnAt: number}} myTiles  the hand as shown (drawn tile last)
 * @property {string | null} myName
 * @property {Array<string | null>} handNames  who sat where in the hand on the board
 * @property {{version: number, hints: import("./protocol.js").HintsJSON, hand: number[] | null} | null} hintGot
 *           the last `hints` frame and the hand it was for (听牌提示, hints.js)
 */

/** @returns {TableState} */
function initial() {
  return { frame: null, status: "connecting", gone: null, me: null, records: [], loaded: false,
    feed: [], endAt: null, pending: null, sel: null, shown: null, inHand: false, mySeat: null, phase: null,
    myTurn: false, windowOpen: false, discardable: new Map(), others: [], between: false,
    myTiles: { tiles: [], drawnAt: -1 }, myName: null, handNames: [], hintGot: null };
}

/** @type {TableState} */
let state = initial();
/** @type {Set<() => void>} */
const listeners = new Set();

// What every component would otherwise compute again: derived from the frame and `me`.
/** @param {TableState} s */
function derive(s) {
  const f = s.frame;
  if (!f) return {};
  const view = f.view;
  const room = f.room;
  const legal = f.legal || [];
  const inHand = view.phase !== "waiting";
  const mySeat = view.seat !== undefined && view.seat !== null ? view.seat : null;
  const phase = view.phase;
  const myTurn = inHand && phase === Phase.TURN && view.turn === mySeat && legal.length > 0;
  const windowOpen = inHand && WINDOWS.includes(/** @type {any} */ (phase)) && legal.length > 0;
  const discardable = new Map(legal.filter((a) => a.type === ActionType.DISCARD).map((a) => [a.tile, a]));
  const others = legal.filter((a) => a.type !== ActionType.DISCARD);
  const between = room.started && !room.over && !room.in_hand && view.table.hands > 0;
  const myName = s.me ? s.me.name : mySeat !== null ? view.table.seats[mySeat] : null;
  return { inHand, mySeat, phase, myTurn, windowOpen, discardable, others, between, myName,
    myTiles: handAsShown(view, mySeat, inHand), handNames: namesOfHand(view, s.records, inHand) };
}

// Who sat where in the hand on the board (after 下桌 the table's seats have moved on: a
// hand that is over names its record's people).
function namesOfHand(view, records, inHand) {
  if (inHand && view.phase === Phase.OVER) {
    const rec = records.find((r) => r.number === view.table.hands - 1);
    if (rec) return rec.seats;
  }
  return view.table.seats;
}

// The concealed hand as shown: the tile just drawn apart, at the end.
function handAsShown(view, mySeat, inHand) {
  if (mySeat === null || !inHand) return { tiles: [], drawnAt: -1 };
  const hand = [...view.hand];
  const d = view.drawn;
  if (view.phase === Phase.TURN && view.turn === mySeat && d !== null && d !== undefined) {
    const i = hand.lastIndexOf(d);
    if (i >= 0) { hand.splice(i, 1); hand.push(d); return { tiles: hand, drawnAt: hand.length - 1 }; }
  }
  return { tiles: hand, drawnAt: -1 };
}

function notify() {
  for (const fn of [...listeners]) fn();
}

export const store = {
  /** @returns {TableState} */
  getState: () => state,

  /** @param {() => void} fn @returns {() => void} */
  subscribe(fn) {
    listeners.add(fn);
    return () => { listeners.delete(fn); };
  },

  // A new table (another room or seat): nothing of the last one stays.
  reset() {
    state = initial();
    notify();
  },

  /** Fields that are not the frame's (me, records, status, pending, sel). @param {Partial<TableState>} patch */
  set(patch) {
    state = { ...state, ...patch };
    if ("me" in patch || "records" in patch) state = { ...state, ...derive(state) };
    notify();
  },

  /**
   * Fold a `state` frame in, then replay its events on the bus. `live`: the frame reports
   * what just happened (not a snapshot, nor the backlog a new connection catches up with),
   * so the senses may play it.
   * @param {StateFrame} f
   * @param {boolean} live
   */
  fold(f, live) {
    const before = state;
    const endAt = f.deadline !== null && f.deadline !== undefined ? performance.now() + f.deadline * 1000 : null;
    const feed = [...(f.snapshot ? [] : state.feed), ...f.events].slice(-FEED_MAX);
    state = { ...state, frame: f, feed, endAt, sel: null };
    state = { ...state, ...derive(state) };
    notify();
    const ctx = { state, live: live && !f.snapshot };
    for (const ev of f.snapshot ? [] : f.events) bus.emit(ev, ctx);
    // Prompts are states, not events: the turn alert hangs from their start.
    if (state.myTurn && !before.myTurn) bus.emit({ type: LocalEvent.MY_TURN }, ctx);
    if (state.windowOpen && !before.windowOpen) bus.emit({ type: LocalEvent.WINDOW }, ctx);
  },

  /** A quick phrase (a `phrase` frame) onto the bus, for the bubbles (phrases.js).
   * @param {import("./protocol.js").PhraseFrame} f */
  phrase(f) {
    bus.emit({ type: LocalEvent.PHRASE, who: f.who, id: f.id }, { state, live: true });
  },
};

// Whether a frame's events end a hand or the match (the records then change).
/** @param {StateFrame} f */
export function endsHand(f) {
  return f.snapshot || f.events.some((e) => e.type === TableEventType.HAND_END || e.type === TableEventType.CLOSE);
}

/**
 * The part of the table's state a component reads; it re-renders when that part changes
 * (compared with Object.is: select a field, or something derived in the store).
 * @template T
 * @param {(s: TableState) => T} selector
 * @returns {T}
 */
export function useStore(selector) {
  const [, force] = useState(0);
  const pick = useRef(selector);
  pick.current = selector;
  const value = selector(state);
  const last = useRef(value);
  last.current = value;
  useEffect(() => {
    const check = () => {
      if (!Object.is(pick.current(state), last.current)) force((x) => x + 1);
    };
    check();  // a frame folded between this render and the subscription
    return store.subscribe(check);
  }, []);
  return value;
}
