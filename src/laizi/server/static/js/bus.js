// The table's event bus: the store (store.js) replays each frame's events here, typed as
// the server names them (GameEventType / TableEventType, protocol.js), and adds two of its
// own when a prompt starts (LocalEvent), and the room's quick phrases as they come. Sound,
// motion and haptics subscribe, and the phrase bubbles (phrases.js); other components do
// not, so the senses are added or removed without touching the table's code.
//
// Every listener gets (event, ctx): ctx.state is the table's state after the frame,
// ctx.live whether the event just happened — false for a snapshot and for the backlog a
// new connection catches up with, which no sense plays again.

/** @typedef {import("./protocol.js").EventJSON} EventJSON */
/** @typedef {{state: import("./store.js").TableState, live: boolean}} BusContext */
/** A quick phrase somebody sent the room (a `phrase` frame: in no log, no game event).
 * @typedef {{type: "local:phrase", who: string, id: import("./protocol.js").QuickPhraseWord}} PhraseEvent */
/** @typedef {EventJSON | PhraseEvent | {type: string}} BusEvent */
/** @typedef {(ev: BusEvent, ctx: BusContext) => void} BusListener */

// The client's own events (never a word of the protocol): a prompt starts; a phrase came.
export const LocalEvent = Object.freeze({
  MY_TURN: "local:my_turn",  // it became my turn (with something to do)
  WINDOW: "local:window",    // a claim prompt (or 抢杠 / 天听) opened for me
  PHRASE: "local:phrase",    // somebody's quick phrase (快捷语) reached the room
});

/** @type {Set<BusListener>} */
const listeners = new Set();

export const bus = {
  /** @param {BusListener} fn @returns {() => void} the unsubscribe */
  on(fn) {
    listeners.add(fn);
    return () => { listeners.delete(fn); };
  },

  /** @param {BusEvent} ev @param {BusContext} ctx */
  emit(ev, ctx) {
    for (const fn of [...listeners]) {
      // A sense that fails must not stop the table (nor the other senses).
      try { fn(ev, ctx); } catch (e) { console.warn("bus listener failed", e); }
    }
  },
};
