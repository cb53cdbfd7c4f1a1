// The score-keeper without a network (docs/hall.md, "A phone that behaves like an app").
// The service worker (static/sw.js) keeps the app's files; it never caches the API. What
// the score-keeper needs of the API offline is kept here, on the device, by the page:
//
// * the last answer of the few GETs it needs (the variants, the variant's tiles, the
//   session's ledger), given back when the network is not there (savedGet);
// * the hands entered offline, in order (localStorage "laizi.score.pending"): shown as
//   pending, and sent when the network is back (the `online` event, or the next load
//   online) to POST /api/score/hand (the server builds and checks the record, as for any
//   hand) and then POST /api/score/sessions/ID/hands (stored, settled, in the ledger).
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "./api.js";
import { ErrorCode } from "./protocol.js";

const SAVED = "laizi.saved.";
const PENDING = "laizi.score.pending";

/** Whether the browser says it has no network. */
export const isOffline = () => navigator.onLine === false;

/** Keep `answer` as the last answer of GET `path`. @param {string} path @param {any} answer */
export function keep(path, answer) {
  try { localStorage.setItem(SAVED + path, JSON.stringify(answer)); } catch { /* storage full: not kept */ }
}

/**
 * GET `path` from the network, kept on the device; offline (or the network failing), the
 * answer kept last time. A refusal of the server (an ApiError) is its answer, not kept.
 * No request at all while the browser says it is offline (a failed load is logged).
 * @param {string} path @returns {Promise<any>}
 */
export async function savedGet(path) {
  if (!isOffline()) {
    try {
      const answer = await api(path);
      keep(path, answer);
      return answer;
    } catch (e) {
      if (e instanceof ApiError) throw e;
    }
  }
  const saved = localStorage.getItem(SAVED + path);
  if (saved === null) throw new ApiError({ code: "offline", message: "offline" }, 0);
  return JSON.parse(saved);
}

/** Whether the browser has a network, kept up to date (`online` / `offline` events). */
export function useOnline() {
  const [online, setOnline] = useState(!isOffline());
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener("online", up);
    window.addEventListener("offline", down);
    return () => { window.removeEventListener("online", up); window.removeEventListener("offline", down); };
  }, []);
  return online;
}

/**
 * A hand entered offline: the session's, the form as the page held it, and once the
 * server has refused it, why (`missing` or `error`, as POST /api/score/hand says).
 * @typedef {{id: string, session: string, variant: string, options: any, form: any, at: number,
 *   problem?: {missing?: any[], error?: any}}} Pending
 */

/** @returns {Pending[]} */
function all() {
  try { return JSON.parse(localStorage.getItem(PENDING) || "[]"); } catch { return []; }
}
/** @param {Pending[]} list */
function save(list) { localStorage.setItem(PENDING, JSON.stringify(list)); }

/** The session's hands waiting for the network, in the order entered. @param {string} session */
export function pendingHands(session) { return all().filter((p) => p.session === session); }

/** Keep a hand entered offline. @param {{id: string, variant: string, options: any}} session @param {any} form */
export function queueHand(session, form) {
  const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  save([...all(), { id, session: session.id, variant: session.variant, options: session.options, form, at: Date.now() }]);
}

/** Forget a pending hand (the person dropped it). @param {string} id */
export function dropPending(id) { save(all().filter((p) => p.id !== id)); }

/** @type {Promise<any> | null} */
let sending = null;

/**
 * Send the session's pending hands, in order: each built and checked by the server, then
 * stored. A hand the server refuses (incomplete, impossible) stays, marked with why, and
 * the later ones wait behind it (the ledger keeps its order); the network failing again
 * stops the sending. The session as the server has it after the last hand stored, or
 * null when none was. @param {string} sessionId @returns {Promise<any>}
 */
export function sendPending(sessionId) {
  if (!sending) sending = sendAll(sessionId).finally(() => { sending = null; });
  return sending;
}

async function sendAll(sessionId) {
  let session = null;
  for (const p of pendingHands(sessionId)) {
    if (isOffline()) break;
    let made;
    try {
      made = await api("/api/score/hand", { method: "POST", body: { variant: p.variant, options: p.options, form: p.form } });
    } catch (e) {
      if (e instanceof ApiError) { mark(p.id, { error: e.detail }); break; }
      break;  // the network again: later
    }
    if (made.missing.length || !made.ok) { mark(p.id, made.missing.length ? { missing: made.missing } : { error: made.error }); break; }
    try {
      session = await api(`/api/score/sessions/${encodeURIComponent(sessionId)}/hands`, { method: "POST", body: { record: made.record } });
    } catch (e) {
      // another phone's hand stored at that moment (stale_version): sent again next time
      if (e instanceof ApiError && e.code !== ErrorCode.STALE_VERSION) mark(p.id, { error: e.detail });
      break;
    }
    dropPending(p.id);
  }
  return session;
}

/** @param {string} id @param {{missing?: any[], error?: any}} problem */
function mark(id, problem) { save(all().map((p) => (p.id === id ? { ...p, problem } : p))); }
