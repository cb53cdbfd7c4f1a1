// Clubs (亲友圈; docs/clubs.md): the lobby's 我的亲友圈 card (create one, open one),
// the page an invite link opens (/c/INVITE: ask to join, wait for a manager) and the
// club's page (/club/ID): members and who is online, join requests, the live rooms, the
// ledger per evening and in total with the server's check of it, and the ratings.
// Everything shown is the server's: no sums of points are made here.
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { getLang, t, variantName } from "./i18n.js";
import { changedOptions, OptionsForm } from "./options.js";
import { loadVariants } from "./variants.js";
import { api, ensurePerson, getName, personCredential, rememberRoom, setName } from "./api.js";
import { MyHistory } from "./account.js";
import { copyText, TopBar } from "./ui.js";
import { displayName, errorText } from "./words.js";

/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
const POLL_MS = 30000;  // the page asks again: who is online, new rooms, new hands

/** A name the server may take: the one typed in the lobby, else a default. */
function myName() { return getName().trim() || "玩家"; }

// 我的亲友圈 (in the lobby): the person's clubs, and a form to create one.
export function ClubsCard() {
  const [clubs, setClubs] = useState(/** @type {any[] | null} */ (null));
  const [name, setClubName] = useState("");
  const [note, setNote] = useState("");
  useEffect(() => {
    ensurePerson(myName()).then(() => api("/api/clubs")).then((r) => setClubs(r.clubs))
      .catch((err) => setNote(errorText(err)));
  }, []);
  async function create(e) {
    e.preventDefault();
    if (!name.trim()) return;
    try {
      await ensurePerson(myName());
      const r = await api("/api/clubs", { method: "POST", body: { name: name.trim(), person_name: myName() } });
      location.assign(`/club/${r.id}`);
    } catch (err) { setNote(errorText(err)); }
  }
  return html`<section class="card clubs" data-testid="clubs-card">
    <h2>${t("clubs")}</h2>
    <p class="muted small">${t("clubs_hint")}</p>
    ${clubs && clubs.length ? html`<ul class="myrooms" data-testid="my-clubs">${clubs.map((c) => html`<li key=${c.id}>
      <a href=${`/club/${c.id}`}>${c.name}</a>${c.role === "manager" ? html` <span class="tag">${t("club_manager")}</span>` : ""}</li>`)}</ul>` : ""}
    <form class="row" onSubmit=${create} data-testid="club-create">
      <label for="club-name">${t("club_name")}
        <input id="club-name" name="club-name" maxlength="32" value=${name} onInput=${(e) => setClubName(e.currentTarget.value)} /></label>
      <button type="submit" class="primary">${t("club_create")}</button>
    </form>
    ${note ? html`<p class="note" role="status">${note}</p>` : ""}
  </section>`;
}

// /c/INVITE: the club's name, a name to go by, "ask to join"; then it waits for a
// manager's yes (asking /api/clubs again) and offers the club's page.
export function ClubInvitePage({ invite }) {
  const [club, setClub] = useState(/** @type {any} */ (null));
  const [status, setStatus] = useState("");
  const [name, setNameState] = useState(getName());
  const [note, setNote] = useState("");
  const path = `/api/clubs/invite/${encodeURIComponent(invite)}`;
  useEffect(() => { api(path).then(setClub).catch((err) => setNote(errorText(err))); }, [invite]);
  useEffect(() => {
    if (status !== "requested" || !club) return undefined;
    const timer = setInterval(() => {
      api("/api/clubs").then((r) => { if (r.clubs.some((c) => c.id === club.id)) setStatus("member"); })
        .catch(() => {});
    }, 2000);
    return () => clearInterval(timer);
  }, [status, club]);
  async function ask(e) {
    e.preventDefault();
    if (!name.trim()) { setNote(t("name_needed")); return; }
    setName(name.trim());
    try {
      await ensurePerson(name.trim());
      setStatus((await api(path, { method: "POST", body: { person_name: name.trim() } })).status);
      setNote("");
    } catch (err) { setNote(errorText(err)); }
  }
  return html`<div class="page lobby">
    <${TopBar} title=${t("club_title")} />
    <main class="cards"><section class="card" data-testid="club-invite">
      ${club ? html`<h2 data-testid="invite-club-name">${club.name}</h2>` : ""}
      <p>${t("club_invited")}</p>
      ${status === "member" ? html`<a class="button primary" data-testid="open-club" href=${`/club/${club.id}`}>${t("club_open")}</a>`
        : status === "requested" ? html`<p class="note-warn" role="status" data-testid="club-requested">${t("club_requested")}</p>`
        : html`<form onSubmit=${ask}>
          <label for="invite-name">${t("your_name")}
            <input id="invite-name" name="invite-name" maxlength="24" autocomplete="nickname" value=${name}
              onInput=${(e) => setNameState(e.currentTarget.value)} /></label>
          <button type="submit" class="primary" data-testid="ask-join" disabled=${!club}>${t("club_ask")}</button>
        </form>`}
      ${note ? html`<p class="note" role="status" data-testid="invite-note">${note}</p>` : ""}
    </section></main>
  </div>`;
}

// The invite link, its QR code and a copy button (any member may pass it on).
function InviteBox({ club }) {
  const [copied, setCopied] = useState(false);
  return html`<section class="card invite" data-testid="club-link" data-link=${club.link}>
    <h2>${t("club_invite")}</h2>
    <img class="qr" alt=${t("club_invite")} src=${`data:image/svg+xml;charset=utf-8,${encodeURIComponent(club.qr)}`} />
    <p class="muted small">${t("club_invite_hint")}</p>
    <button type="button" class="small" onClick=${async () => setCopied(await copyText(club.link))}>${copied ? t("copied") : t("acct_copy_link")}</button>
  </section>`;
}

function Requests({ id, requests, reload, fail }) {
  if (!requests.length) return null;
  const answer = (person, approve) => api(`/api/clubs/${id}/requests/${person}`, { method: "POST", body: { approve } })
    .then(reload).catch(fail);
  return html`<section class="card" data-testid="club-requests"><h2>${t("club_requests")}</h2>
    <ul class="myrooms">${requests.map((r) => html`<li key=${r.id} data-person=${r.name}>
      <span>${r.name}</span>
      <button type="button" class="small primary" data-testid="approve" onClick=${() => answer(r.id, true)}>${t("club_approve")}</button>
      <button type="button" class="small" onClick=${() => answer(r.id, false)}>${t("club_deny")}</button></li>`)}</ul>
  </section>`;
}

function Members({ id, data, reload, fail }) {
  const [shown, setShown] = useState("");  // whose 战绩 is open
  const manager = data.me.role === "manager";
  const set = (person, role) => api(`/api/clubs/${id}/members/${person}`, { method: "POST", body: { role } })
    .then(reload).catch(fail);
  const online = data.members.filter((m) => m.online).length;
  return html`<section class="card" data-testid="club-members">
    <h2>${t("club_members")} <span class="muted small">${t("club_online", { n: online, all: data.members.length })}</span></h2>
    <ul class="myrooms">${data.members.map((m) => html`<li key=${m.id} data-member=${m.name}>
      <span class=${m.online ? "dot on" : "dot"} title=${m.online ? t("club_is_online") : ""}></span>
      <button type="button" class="link" data-testid="member-history" aria-expanded=${shown === m.id}
        onClick=${() => setShown(shown === m.id ? "" : m.id)}>${m.name}</button>
      ${m.role === "manager" ? html`<span class="tag">${t("club_manager")}</span>` : ""}
      ${manager && m.id !== data.me.id ? html`<span class="member-acts">
        <button type="button" class="small" onClick=${() => set(m.id, m.role === "manager" ? "member" : "manager")}>
          ${m.role === "manager" ? t("club_unmake") : t("club_make")}</button>
        <button type="button" class="small" onClick=${() => confirm(t("club_remove_q", { name: m.name })) && set(m.id, null)}>${t("club_remove")}</button>
      </span>` : ""}
      ${shown === m.id ? html`<div class="member-history"><${MyHistory} path=${`/api/persons/${m.id}/history`} /></div>` : ""}</li>`)}</ul>
  </section>`;
}

function Rooms({ id, rooms, fail }) {
  async function open() {
    try {
      const r = await api(`/api/clubs/${id}/rooms`, { method: "POST", body: { name: myName() } });
      rememberRoom(r.code, { token: r.token, name: myName(), role: "player" });
      location.assign(`/r/${r.code}`);
    } catch (err) { fail(err); }
  }
  return html`<section class="card" data-testid="club-rooms"><h2>${t("club_rooms")}</h2>
    ${rooms.length ? html`<ul class="myrooms">${rooms.map((r) => html`<li key=${r.code} data-room=${r.code}>
      <a href=${`/r/${r.code}`}>${r.name || r.code}</a><span>${variantName(r.variant)}</span>
      <span class="muted small">${r.seats.map((s) => displayName(s)).join(" · ")}</span></li>`)}</ul>`
      : html`<p class="muted">${t("club_no_rooms")}</p>`}
    <button type="button" class="primary" data-testid="club-new-room" onClick=${open}>${t("club_new_room")}</button>
  </section>`;
}

// The club's score-keeping sessions at a real table (记分): each a live link (a member
// of the club watches it; its members enter hands), and a new one with the club's game.
function Sessions({ id, club, sessions }) {
  const day = (s) => new Date(s.created * 1000).toLocaleDateString(getLang() === "en" ? "en" : "zh-CN");
  return html`<section class="card" data-testid="club-sessions"><h2>${t("club_sessions")}</h2>
    ${sessions.length ? html`<ul class="myrooms">${sessions.map((s) => html`<li key=${s.id} data-session=${s.id} data-closed=${s.closed ? "yes" : "no"}>
      <a href=${`/score?s=${encodeURIComponent(s.id)}`}>${s.names.join(" · ")}</a>
      <span class="muted small">${variantName(s.variant)} · ${day(s)}</span>
      <span class=${s.closed ? "tag" : "muted small"}>${s.closed ? t("club_session_closed", { n: s.hands }) : t("club_session_open", { n: s.hands })}</span></li>`)}</ul>`
      : html`<p class="muted">${t("club_no_sessions")}</p>`}
    <a class="button" data-testid="club-new-session" href=${`/score?club=${encodeURIComponent(id)}&variant=${encodeURIComponent(club.settings.variant)}`}>${t("club_new_session")}</a>
    <p class="muted small">${t("club_sessions_hint")}</p>
  </section>`;
}

const BOT = "🤖";  // a bot's seat name begins with it (the hall's bots)
/** @param {number} v */
const pointsClass = (v) => (v > 0 ? "pos" : v < 0 ? "neg" : "");

/** Points of one column: the members by their names, the other names (a score-keeping
 *  session's players not mapped to members) each by name, the bots together. */
function Points({ row, names }) {
  const others = Object.entries(row.others);
  const bots = others.filter(([n]) => n.startsWith(BOT)).reduce((a, [, v]) => a + v, 0);
  const people = others.filter(([n]) => !n.startsWith(BOT));
  return html`<ul class="history">${Object.entries(row.members).map(([p, v]) => html`<li key=${p}>
      <span>${names[p] || "?"}</span><strong class=${pointsClass(v)}>${signed(v)}</strong></li>`)}
    ${people.map(([n, v]) => html`<li key=${`name:${n}`}><span>${n}</span><strong class=${pointsClass(v)}>${signed(v)}</strong></li>`)}
    ${people.length < others.length ? html`<li><span class="muted">${t("club_others")}</span><strong>${signed(bots)}</strong></li>` : ""}</ul>`;
}

function Ledger({ id, ledger, verdict }) {
  const [note, setNote] = useState("");
  async function download() {
    try {
      const res = await fetch(`/api/clubs/${id}/ledger.csv`, { headers: { "X-Laizi-Person": personCredential() } });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(await res.blob());
      a.download = `club-${id}.csv`;
      a.click();
    } catch (err) { setNote(errorText(err)); }
  }
  const { totals } = ledger;
  return html`<section class="card" data-testid="club-ledger"><h2>${t("club_ledger")}</h2>
    ${verdict ? html`<p class=${verdict.ok ? "note verdict ok" : "note-warn verdict"} data-testid="club-verdict">
      ${verdict.ok ? t("club_verified", { n: verdict.entries }) : t("club_not_verified", { msg: verdict.problem })}</p>` : ""}
    <h3>${t("club_total")} <span class="muted small">${t("club_hands", { n: totals.total.hands })}</span></h3>
    <${Points} row=${totals.total} names=${totals.names} />
    ${totals.evenings.map((ev) => html`<details key=${ev.evening} data-evening=${ev.evening}>
      <summary>${ev.evening} · ${t("club_hands", { n: ev.hands })}</summary><${Points} row=${ev} names=${totals.names} /></details>`)}
    <button type="button" class="small" data-testid="club-csv" onClick=${download}>${t("club_csv")}</button>
    <p class="muted small">${t("club_ledger_hint")}</p>
    ${note ? html`<p class="note" role="status">${note}</p>` : ""}
  </section>`;
}

function Ratings({ ratings }) {
  const variants = Object.entries(ratings);
  return html`<section class="card" data-testid="club-ratings"><h2>${t("club_ratings")}</h2>
    ${variants.length ? variants.map(([v, rows]) => html`<table class="stats" key=${v}>
      <thead><tr><th>${variantName(v)}</th><th>${t("club_rating")}</th><th>μ ± σ</th><th>${t("club_matches")}</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr key=${r.id}><td>${r.name}</td><td>${r.ordinal}</td>
        <td>${r.mu} ± ${r.sigma}</td><td>${r.matches}</td></tr>`)}</tbody></table>`)
      : html`<p class="muted">${t("club_no_ratings")}</p>`}
    <p class="muted small">${t("club_ratings_hint")}</p>
  </section>`;
}

// A manager's form of the club's default variant and house rules (its rooms' defaults).
function ClubRules({ id, club, reload, fail }) {
  const [variants, setVariants] = useState(/** @type {any[] | null} */ (null));
  const [variant, setVariant] = useState(club.settings.variant);
  const [options, setOptions] = useState(club.settings.options || {});
  const [saved, setSaved] = useState(false);
  useEffect(() => { loadVariants().then(setVariants); }, []);
  const v = variants && variants.find((x) => x.id === variant);
  async function save(e) {
    e.preventDefault();
    const settings = { ...club.settings, variant, options: changedOptions(v, options) };
    try { await api(`/api/clubs/${id}/settings`, { method: "POST", body: { settings } }); setSaved(true); reload(); } catch (err) { fail(err); }
  }
  return html`<details class="card" data-testid="club-rules"><summary><h2>${t("club_rules")}</h2></summary>
    <form onSubmit=${save}>
      <label for="club-variant">${t("variant")}
        <select id="club-variant" name="club-variant" value=${variant} onChange=${(e) => { setVariant(e.currentTarget.value); setOptions({}); setSaved(false); }}>
          ${(variants || []).map((x) => html`<option value=${x.id}>${variantName(x.id, x.name)}</option>`)}
        </select></label>
      <${OptionsForm} variant=${v} value=${options} onChange=${(o) => { setOptions(o); setSaved(false); }} lang=${getLang()} />
      <button type="submit" class="primary" disabled=${!v}>${saved ? t("club_saved") : t("club_save")}</button>
    </form>
  </details>`;
}

/** The club page's data: the page, its ledger, the check and the ratings. */
function useClub(id) {
  const [state, setState] = useState(/** @type {any} */ ({ data: null, ledger: null, verdict: null, ratings: null, note: "" }));
  const fail = (err) => setState((s) => ({ ...s, note: errorText(err) }));
  async function load() {
    try {
      await ensurePerson(myName());
      const data = await api(`/api/clubs/${id}`);
      setState((s) => ({ ...s, data, note: "" }));
      const [ledger, verdict, ratings] = await Promise.all([api(`/api/clubs/${id}/ledger`),
        api(`/api/clubs/${id}/verify`), api(`/api/clubs/${id}/ratings`)]);
      setState((s) => ({ ...s, ledger, verdict, ratings: ratings.ratings }));
    } catch (err) { fail(err); }
  }
  useEffect(() => {
    load();
    const timer = setInterval(load, POLL_MS);
    return () => clearInterval(timer);
  }, [id]);
  return { ...state, load, fail };
}

// /club/ID: the club's page, for its members (anybody else is told so by the server).
export function ClubPage({ id }) {
  const { data, ledger, verdict, ratings, note, load, fail } = useClub(id);
  async function leave() {
    if (!confirm(t("club_leave_q"))) return;
    try { await api(`/api/clubs/${id}/leave`, { method: "POST", body: {} }); location.assign("/"); } catch (err) { fail(err); }
  }
  const club = data && data.club;
  return html`<div class="page lobby club-page">
    <${TopBar} title=${club ? club.name : t("club_title")} />
    <main class="cards">
      ${note ? html`<p class="note-warn" role="status" data-testid="club-note">${note}</p>` : ""}
      ${club ? html`<section class="card hero" data-testid="club-head">
        <h2>${club.name}</h2>
        <p class="muted small">${t("club_default", { variant: variantName(club.settings.variant) })} · ${data.me.role === "manager" ? t("club_manager") : t("club_member")}</p>
      </section>
      <${Requests} id=${id} requests=${data.requests} reload=${load} fail=${fail} />
      <${Members} id=${id} data=${data} reload=${load} fail=${fail} />
      <${Rooms} id=${id} rooms=${data.rooms} fail=${fail} />
      <${Sessions} id=${id} club=${club} sessions=${data.sessions || []} />
      ${ledger ? html`<${Ledger} id=${id} ledger=${ledger} verdict=${verdict} />` : ""}
      ${ratings ? html`<${Ratings} ratings=${ratings} />` : ""}
      ${data.me.role === "manager" ? html`<${ClubRules} id=${id} club=${club} reload=${load} fail=${fail} />` : ""}
      <${InviteBox} club=${club} />
      <section class="card"><button type="button" class="small" data-testid="club-leave" onClick=${leave}>${t("club_leave")}</button></section>`
      : note ? "" : html`<p class="muted">${t("loading")}</p>`}
    </main>
  </div>`;
}
