// The score-keeper on every phone at the table (docs/hall.md, "The score-keeper on every
// phone"): a session's members (the phones that joined by its link or QR code, each with
// its own identity, X-Laizi-Person) may each enter a hand; every phone shows the ledger as
// it changes. The link carries the join secret in its fragment (#join=SECRET), which a
// browser never sends to a server; the page takes it out of the address bar once joined.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "./i18n.js";
import { api, ensurePerson, getName } from "./api.js";
import { savedGet, isOffline } from "./offline.js";
import { LedgerTable } from "./settle.js";
import { copyText } from "./ui.js";
import { errorText } from "./words.js";

/** How often a visible page asks the session's version (ms). */
export const POLL_MS = 1500;

const path = (id) => `/api/score/sessions/${encodeURIComponent(id)}`;

/** The join secret of the address (`#join=SECRET`), or null. @returns {string | null} */
export function joinSecret() {
  const m = /(?:^#|&)join=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

/**
 * Open session `id` as this phone: its identity first (made silently on a first visit),
 * then the session; with the link's secret (or a session from before sharing that nobody
 * has claimed) the phone joins it. Offline: the session as last seen. A refused join
 * leaves the phone a watcher, and says why (`note`).
 * @param {string} id @returns {Promise<{session: any, note: string}>}
 */
export async function openSession(id) {
  if (!isOffline()) await ensurePerson(getName()).catch(() => null);
  let session = await savedGet(path(id));
  const secret = joinSecret();
  let note = "";
  if (!session.member && !isOffline() && (secret || session.claimable)) {
    try {
      session = await api(`${path(id)}/join`, { method: "POST", body: secret ? { secret } : {} });
      if (secret) note = t("sk_joined");
    } catch (e) { note = errorText(e); }
  }
  if (secret) history.replaceState(null, "", `/score?s=${encodeURIComponent(id)}`);
  return { session, note };
}

/**
 * Keep `session` live: a visible page asks its version every POLL_MS and loads it again
 * when another phone moved it. Polling, not a held connection (long poll, server-sent
 * events): the hall may run as several processes (`--workers`) behind its middleware and
 * rate limits, and any of them answers a version from the shared database, where a held
 * connection would need a notice between processes, hold a socket per phone and be cut by
 * proxies and by a phone going to sleep. A version is one indexed row read; a hidden page
 * asks nothing, and asks at once when shown again.
 * @param {any} session @param {(s: any) => void} setSession
 */
export function useLive(session, setSession) {
  const seen = useRef(-1);
  seen.current = session ? session.version : -1;
  const id = session ? session.id : null;
  useEffect(() => {
    if (!id) return undefined;
    let timer = 0;
    let stopped = false;
    let busy = false;
    const tick = async () => {
      if (stopped) return;
      if (!document.hidden && !isOffline()) {
        busy = true;
        try {
          const { version } = await api(`${path(id)}/version`);
          if (version !== seen.current) {
            const fresh = await api(path(id));
            // a phone's own write may have answered meanwhile with a later version
            if (!stopped && fresh.version >= seen.current) setSession(fresh);
          }
        } catch { /* the network: the next tick */ }
        busy = false;
      }
      if (!stopped) timer = window.setTimeout(tick, POLL_MS);
    };
    timer = window.setTimeout(tick, POLL_MS);
    const shown = () => { if (!document.hidden && !busy) { clearTimeout(timer); tick(); } };
    document.addEventListener("visibilitychange", shown);
    return () => { stopped = true; clearTimeout(timer); document.removeEventListener("visibilitychange", shown); };
  }, [id]);
}

/** The session's ledger rows and totals, as LedgerTable takes them. @param {any} session */
export function ledgerOf(session) {
  const names = session.names;
  const rows = session.hands.map((h) => ({ label: t("sk_hand", { n: h.n + 1 }), values: Object.fromEntries(names.map((p, s) => [p, h.settlement.net[s]])) }));
  const totals = Object.fromEntries(names.map((p, s) => [p, session.ledger[s]]));
  return { rows, totals };
}

// Who keeps score, and (a tap away) the join link and its QR code to show the table.
/** @param {{session: any}} props */
export function ShareCard({ session }) {
  const [link, setLink] = useState(/** @type {any} */ (null));
  const [copied, setCopied] = useState(false);
  const [note, setNote] = useState("");
  async function invite() {
    try { setLink(await api(`${path(session.id)}/link`)); setNote(""); } catch (e) { setNote(errorText(e)); }
  }
  return html`<section class="card sk-share" data-testid="sk-share">
    <p class="small" data-testid="sk-members">${t("sk_members", { names: session.members.join("、") })}</p>
    ${link ? html`<div class="device-link" data-testid="sk-link" data-link=${link.link}>
      <img class="qr" alt=${t("sk_qr")} src=${`data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr)}`} />
      <p class="muted small">${t("sk_share_hint")}</p>
      <div class="row buttons">
        <button type="button" class="small" onClick=${async () => setCopied(await copyText(link.link))}>${copied ? t("copied") : t("sk_copy_link")}</button>
        <button type="button" class="small" onClick=${() => setLink(null)}>${t("sk_hide_link")}</button>
      </div></div>`
    : html`<button type="button" class="small" data-testid="sk-invite" onClick=${invite}>${t("sk_share")}</button>`}
    ${note ? html`<p class="note" role="status">${note}</p>` : ""}
  </section>`;
}

/**
 * The session's names that are the name of exactly one club member: name → person id.
 * @param {string[]} names @param {{id: string, name: string}[]} members @returns {Record<string, string>}
 */
export function tiedNames(names, members) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const name of new Set(names)) {
    const found = members.filter((m) => m.name === name);
    if (found.length === 1 && names.filter((n) => n === name).length === 1) out[name] = found[0].id;
  }
  return out;
}

// A club's session: a member closes it for the evening (结束并记入账本), and the server
// appends its hands to the club's ledger; from then on it is read-only on every phone.
/** @param {{session: any, setSession: (s: any) => void, show: (m: string) => void, conflict: (e: any) => Promise<boolean>}} props */
export function CloseButton({ session, setSession, show, conflict }) {
  if (!session.club || !session.hands.length) return null;
  async function close() {
    // names of the table that are a club member's name (one member's only) count for
    // that member in the club's totals; the question says which, before anything is done
    let persons = {};
    try { persons = tiedNames(session.names, (await api(`/api/clubs/${encodeURIComponent(session.club)}`)).members); } catch { /* the close says why */ }
    const tied = Object.keys(persons);
    const asked = t("sk_close_q", { n: session.hands.length }) + (tied.length ? `\n${t("sk_close_members", { names: tied.join("、") })}` : "");
    if (!confirm(asked)) return;
    try {
      setSession(await api(`${path(session.id)}/close`, { method: "POST", body: { version: session.version, persons } }));
    } catch (e) { if (!(await conflict(e))) show(errorText(e)); }
  }
  return html`<button type="button" class="primary" data-testid="sk-close" onClick=${close}>${t("sk_close")}</button>`;
}

// A phone that is not a member (it has the session's address, not its link), or any
// phone once the session is closed: the ledger, live, and how to join (or where the
// closed session's hands went).
/** @param {{session: any, onNew?: () => void}} props */
export function Watcher({ session, onNew }) {
  const { rows, totals } = ledgerOf(session);
  const closed = session.closed != null;
  return html`<div class="keeper"><div class="keeper-main">
    ${closed ? html`<section class="card sk-share" data-testid="sk-closed">
      <p>${session.club ? t("sk_closed", { n: session.hands.length }) : t("sk_closed_plain")}</p>
      <div class="row buttons">
        ${session.club ? html`<a class="button primary" data-testid="sk-club-link" href=${`/club/${encodeURIComponent(session.club)}`}>${t("sk_club_ledger")}</a>` : ""}
        <a class="button" data-testid="sk-closed-export" href=${`${path(session.id)}/export`} download>${t("sk_export")}</a>
        ${onNew ? html`<button type="button" onClick=${onNew}>${t("sk_new")}</button>` : ""}</div></section>`
    : html`<section class="card sk-share" data-testid="sk-viewer"><p class="muted">${t("sk_viewer")}</p>
      <p class="small">${t("sk_members", { names: session.members.join("、") })}</p></section>`}
    <section class="card" data-testid="sk-ledger"><h2>${t("ledger")}</h2>
      ${session.hands.length ? html`<${LedgerTable} people=${session.names} rows=${rows} totals=${totals} />` : html`<p class="muted">${t("sk_ledger_empty")}</p>`}
    </section></div></div>`;
}
