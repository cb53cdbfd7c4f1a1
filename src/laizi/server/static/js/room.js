// The room tab (the share box, your own link, seats, 买马, the host's controls, the
// dismiss vote) and the waiting room shown before the first hand.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t, variantName } from "./i18n.js";
import { api } from "./api.js";
import { copyText } from "./ui.js";
import { displayName } from "./words.js";
import { ClientOp } from "./protocol.js";
import { AppSettings } from "./device.js";
import { descriptor } from "./variants.js";

// Where friends open this hall (GET /api/share): the LAN address when this page was
// opened on 127.0.0.1 / localhost, so the share link is never a loopback one.
let shareInfo = null;
function useShareInfo() {
  const [info, setInfo] = useState(shareInfo);
  useEffect(() => {
    if (info) return;
    if (!shareInfo) shareInfo = api("/api/share").catch(() => ({ base: location.origin, lan: [], local_only: false }));
    Promise.resolve(shareInfo).then((x) => { shareInfo = x; setInfo(x); });
  }, []);
  return info;
}

// The invitation: the room's link (always shown, selectable), its QR code, the system
// share sheet where there is one, and a copy button that works over plain http. A hall
// that listens on loopback only (`local_only`) shows no QR code — a friend's phone could
// not open its link — but says how to start it for phones.
function ShareBox({ code, variant, testid }) {
  const info = useShareInfo();
  const [copied, setCopied] = useState("");
  const ref = useRef(null);
  const base = info ? info.base : location.origin;
  const link = `${base}/r/${encodeURIComponent(code)}`;
  async function copy() {
    const ok = await copyText(link);
    if (!ok && ref.current) { ref.current.focus(); ref.current.select(); }
    setCopied(ok ? "ok" : "manual");
    setTimeout(() => setCopied(""), 2500);
  }
  function shareSheet() {
    navigator.share({ title: t("app"), text: t("share_text", { variant: variantName(variant), code }), url: link })
      .catch(() => {});  // closed by the person, or refused: nothing to say
  }
  return html`<div class="sharebox" data-testid=${testid || "sharebox"}>
    ${!info ? html`<div class="qr"></div>` : info.local_only ? "" : html`<img class="qr" src=${`/api/qr?text=${encodeURIComponent(link)}`} alt=${t("qr_alt")} title=${link} data-testid="share-qr" width="148" height="148" />`}
    <div class="share-main">
      <p class="muted small">${t("share_hint")}</p>
      <textarea class="share-link" readonly rows="2" ref=${ref} aria-label=${t("share")} data-testid="share-link"
        onFocus=${(e) => e.currentTarget.select()} value=${link}></textarea>
      <div class="row buttons">
        ${typeof navigator.share === "function" ? html`<button type="button" class="primary" data-testid="share-sheet" onClick=${shareSheet}>${t("share_sheet")}</button>` : ""}
        <button type="button" data-testid="copy-share" onClick=${copy}>${t("copy")}</button>
        <span class="copied" role="status" aria-live="polite">${copied === "ok" ? t("copied") : copied === "manual" ? t("copy_manual") : ""}</span>
      </div>
      ${info && info.local_only ? html`<p class="note-warn small" data-testid="share-local-only">${t("share_local_only")}</p>` : ""}
    </div>
  </div>`;
}

export function WaitingRoom({ table, room, code }) {
  return html`<div class="waitingroom">
    <h2>${variantName(table.variant)}</h2>
    ${!room.over ? html`<${ShareBox} code=${code} variant=${table.variant} />` : ""}
    <ol class="seatlist">${table.seats.map((p, i) => html`<li key=${i}>${displayName(p)}${p === room.host ? ` · ${t("host_controls")}` : ""}</li>`)}</ol>
    ${table.waiting.length ? html`<p>${t("waiting_list")}: ${table.waiting.map(displayName).join(", ")}</p>` : ""}
  </div>`;
}

// The host's powers over people (docs/hall.md, "Host powers"): lock the room to newcomers,
// and for each other person in it, kick them (a bot takes their seat) or, for a player,
// hand them the host role. Each asks first: neither can be taken back.
function HostPeople({ room, table, myName, send }) {
  /** @param {string | null} p */
  const kicked = new Set(room.kicked || []);
  const person = (p) => !!p && !p.startsWith("🤖") && p !== myName && !kicked.has(p);
  const players = [...table.seats.filter(person), ...table.waiting.filter(person)];
  const people = [...players.map((name) => ({ name, player: true })),
    ...room.spectators.filter(person).map((name) => ({ name, player: false }))];
  const ask = (key, name, op) => { if (confirm(t(key, { name: displayName(name) }))) send(op, { person: name }); };
  return html`<div class="hostpeople">
    <label class="check"><input type="checkbox" data-testid="lock" checked=${!!room.locked}
      onChange=${(e) => send(ClientOp.LOCK, { locked: e.currentTarget.checked })} /> ${t("lock_room")}</label>
    <p class="muted small">${t("lock_hint")}</p>
    ${people.length ? html`<h4>${t("members")}</h4><ul class="memberlist">${people.map((m) => html`<li key=${m.name} data-testid="member" data-name=${m.name}>
      <span class="who">${displayName(m.name)}${m.player ? "" : html` <span class="tag">${t("spectators")}</span>`}</span>
      <span class="row buttons">
        ${m.player ? html`<button type="button" data-testid="make-host" onClick=${() => ask("make_host_confirm", m.name, ClientOp.HOST)}>${t("make_host")}</button>` : ""}
        <button type="button" class="danger" data-testid="kick" onClick=${() => ask("kick_confirm", m.name, ClientOp.KICK)}>${t("kick")}</button>
      </span></li>`)}</ul>` : ""}
  </div>`;
}

export function RoomPanel({ code, token, room, table, me, myName, host, seated, send }) {
  const [copied, setCopied] = useState(false);
  const info = useShareInfo();
  const mine = `${info ? info.base : location.origin}/r/${code}?t=${encodeURIComponent(token)}`;
  const copyMine = async () => { if (await copyText(mine)) { setCopied(true); setTimeout(() => setCopied(false), 2500); } };
  const buys = myName && !table.horses_off.includes(myName);
  const player = me && me.role === "player";
  return html`<div class="roompanel">
    <section><h3>${t("share")}</h3>
      ${!room.over ? html`<${ShareBox} code=${code} variant=${table.variant} testid="sharebox-panel" />` : ""}
      <p class="muted">${t("my_link")}</p>
      <div class="copyrow"><input readonly value=${mine} aria-label=${t("my_link")} onFocus=${(e) => e.currentTarget.select()} />
        <button type="button" onClick=${copyMine}>${copied ? t("copied") : t("copy")}</button></div>
    </section>
    <section><h3>${t("room")} ${code}${room.locked ? html` <span class="tag locked" data-testid="locked-tag">🔒 ${t("locked")}</span>` : ""}</h3>
      <ol class="seatlist">${table.seats.map((p, i) => html`<li key=${i}>${displayName(p)}
        ${p === room.host ? html` <span class="tag">${t("host_controls")}</span>` : ""}
        ${(room.kicked || []).includes(p) ? html` <span class="tag" data-testid="kicked-tag">${t("kicked_seat")}</span>` : ""}
        ${room.auto.includes(p) ? html` <span class="tag auto">${t("auto_short")}</span>` : ""}
        ${p && !p.startsWith("🤖") && !room.online.includes(p) ? html` <span class="tag off">${t("offline")}</span>` : ""}</li>`)}</ol>
      ${table.waiting.length ? html`<p><strong>${t("waiting_list")}</strong>: ${table.waiting.map(displayName).join(", ")}</p>` : ""}
      ${room.spectators.length ? html`<p><strong>${t("spectators")}</strong>: ${room.spectators.map(displayName).join(", ")}</p>` : ""}
    </section>
    ${descriptor(table.variant)?.horses && myName && (seated || table.waiting.includes(myName)) ? html`<section>
      <label class="check"><input type="checkbox" data-testid="horse" checked=${buys} disabled=${room.in_hand || room.over}
        onChange=${(e) => send(ClientOp.HORSE, { buy: e.currentTarget.checked })} /> ${t("buy_horse")}</label></section>` : ""}
    ${player && myName && !seated && !table.waiting.includes(myName) && !room.over ? html`<section>
      <button type="button" onClick=${() => send(ClientOp.SIT)}>${t("sit")}</button></section>` : ""}
    ${seated ? html`<section><p class="muted small">${t("keys_hint")}</p></section>` : ""}
    ${host && !room.over ? html`<section class="host"><h3>${t("host_controls")}</h3><div class="row buttons">
      ${!room.started ? html`<button type="button" class="primary" onClick=${() => send(ClientOp.START)}>${t("start")}</button>` : ""}
      ${room.started && !room.paused ? html`<button type="button" onClick=${() => send(ClientOp.PAUSE)}>${t("pause")}</button>` : ""}
      ${room.paused ? html`<button type="button" onClick=${() => send(ClientOp.RESUME)}>${t("resume")}</button>` : ""}
      <button type="button" class="danger" onClick=${() => { if (confirm(t("end_confirm"))) send(ClientOp.END); }}>${t("end_match")}</button>
    </div><${HostPeople} room=${room} table=${table} myName=${myName} send=${send} /></section>` : ""}
    ${seated && room.started && !room.over && !room.vote ? html`<section><button type="button" onClick=${() => send(ClientOp.DISMISS, { agree: true })}>${t("dismiss")}</button></section>` : ""}
    <${AppSettings} />
  </div>`;
}
