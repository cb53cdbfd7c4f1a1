// This device's person (docs/hall.md, "People"): 我的战绩 (GET /api/me/history, answered
// to this person only), the 账号 card (the recovery code shown once, restoring with a
// code, adding another device by a QR code and a link) and the page a device link opens.
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { t, variantName } from "./i18n.js";
import { api, ensurePerson, getName, keepPerson } from "./api.js";
import { copyText, TopBar } from "./ui.js";
import { errorText } from "./words.js";

/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

// 我的战绩: per-variant statistics, then the rooms (newest first). `path`: another
// person's 战绩 (GET /api/persons/ID/history: a fellow member of a club, club.js).
export function MyHistory({ version = 0, path = "/api/me/history" }) {
  const [data, setData] = useState(/** @type {any} */ (null));
  const [failed, setFailed] = useState("");
  useEffect(() => {
    setData(null);
    ensurePerson(getName()).then(() => api(path)).then(setData)
      .catch((err) => setFailed(errorText(err)));
  }, [version, path]);
  if (failed) return html`<p class="muted">${failed}</p>`;
  if (data === null) return html`<p class="muted">${t("loading")}</p>`;
  if (!data.rooms.length) return html`<p class="muted" data-testid="history-empty">${t("history_empty")}</p>`;
  const stats = Object.entries(data.stats);
  return html`<div data-testid="my-history">
    ${stats.length ? html`<table class="stats" data-testid="history-stats"><thead><tr>
      <th>${t("variant")}</th><th>${t("st_hands")}</th><th>${t("st_wins")}</th><th>${t("st_dealt_in")}</th>
      <th>${t("st_average")}</th><th>${t("st_biggest")}</th></tr></thead><tbody>
      ${stats.map(([v, s]) => html`<tr key=${v}><td>${variantName(v)}</td><td>${s.hands}</td><td>${s.wins}</td>
        <td>${s.dealt_in}</td><td>${s.average}</td><td>${s.biggest}</td></tr>`)}
    </tbody></table>` : ""}
    <ul class="history">${data.rooms.map((r) => html`<li key=${r.room} data-room=${r.room}>
      <a href=${r.status === "over" ? `/replay/${r.room}` : `/r/${r.room}`}>${r.room}</a>
      <span>${variantName(r.variant)}</span>
      <span class="muted">${t(`status_${r.status}`)} · ${t("hand_no", { n: r.hands })}</span>
      <strong class=${r.score > 0 ? "pos" : r.score < 0 ? "neg" : ""}>${signed(r.score)}</strong>
    </li>`)}</ul>
  </div>`;
}

// The 账号 card: who this device is, the recovery code, restoring, another device.
export function AccountCard({ onChange }) {
  const [me, setMe] = useState(/** @type {any} */ (null));
  const [code, setCode] = useState("");
  const [typed, setTyped] = useState("");
  const [link, setLink] = useState(/** @type {any} */ (null));
  const [note, setNote] = useState("");
  const [copied, setCopied] = useState(false);
  const [devices, setDevices] = useState(/** @type {any[] | null} */ (null));
  const load = () => ensurePerson(getName()).then(setMe).catch((err) => setNote(errorText(err)));
  useEffect(() => { load(); }, []);
  const fail = (err) => setNote(errorText(err));

  async function showCode() {
    try { setCode((await api("/api/me/recovery", { method: "POST", body: {} })).code); setNote(""); } catch (err) { fail(err); }
  }
  async function restore(e) {
    e.preventDefault();
    if (!typed.trim()) return;
    try {
      keepPerson(await api("/api/me/recover", { method: "POST", body: { code: typed } }));
      setTyped(""); setCode(""); setLink(null); setNote(t("acct_restored"));
      await load();
      onChange();
    } catch (err) { fail(err); }
  }
  async function showDevices() {
    try { setDevices((await api("/api/me/devices")).devices); setNote(""); load(); } catch (err) { fail(err); }
  }
  // 移除设备: a lost or sold phone's credential is refused from then on (this device
  // keeps its own; the list offers no button to drop it).
  async function dropDevice(id) {
    if (!window.confirm(t("acct_drop_confirm"))) return;
    try {
      await api(`/api/me/devices/${encodeURIComponent(id)}`, { method: "DELETE" });
      setNote(t("acct_dropped"));
      await showDevices();
      await load();
    } catch (err) { fail(err); }
  }
  async function addDevice() {
    try { setLink(await api("/api/me/link", { method: "POST", body: {} })); setCopied(false); setNote(""); } catch (err) { fail(err); }
  }

  return html`<section class="card account" data-testid="account">
    <h2>${t("account")}</h2>
    ${me ? html`<p class="muted small" data-testid="account-who">${t("acct_who", { name: me.name, devices: me.devices })}</p>` : ""}
    <p class="muted small">${t("acct_hint")}</p>
    <div class="row">
      <button type="button" data-testid="show-code" onClick=${showCode}>${t("acct_show_code")}</button>
      <button type="button" data-testid="add-device" onClick=${addDevice}>${t("acct_add_device")}</button>
      <button type="button" data-testid="show-devices" onClick=${showDevices}>${t("acct_devices")}</button>
    </div>
    ${devices ? html`<ul class="devices" data-testid="devices">${devices.map((d) => html`<li key=${d.id} data-device=${d.id}>
      <span>${d.current ? t("acct_this_device") : t("acct_other_device")} · ${t("acct_added", { date: new Date(d.created * 1000).toLocaleDateString() })}</span>
      ${d.current ? "" : html`<button type="button" class="small" data-testid="drop-device" onClick=${() => dropDevice(d.id)}>${t("acct_drop")}</button>`}
    </li>`)}</ul>` : ""}
    ${code ? html`<div class="recovery">
      <p class="code" data-testid="recovery-code">${code}</p>
      <p class="muted small">${t("acct_code_once")}</p></div>` : ""}
    ${link ? html`<div class="device-link" data-testid="device-link" data-link=${link.link}>
      <img class="qr" alt=${t("acct_qr")} src=${`data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr)}`} />
      <p class="muted small">${t("acct_link_hint", { min: Math.round(link.seconds / 60) })}</p>
      <button type="button" class="small" onClick=${async () => setCopied(await copyText(link.link))}>${copied ? t("copied") : t("acct_copy_link")}</button>
    </div>` : ""}
    <form class="restore" onSubmit=${restore} data-testid="restore-form">
      <label for="recover-code">${t("acct_restore")}
        <input id="recover-code" name="recover-code" autocomplete="off" autocapitalize="characters" spellcheck=${false}
          maxlength="40" placeholder="XXXXX-XXXXX-XXXXX-XXXXX" value=${typed} onInput=${(e) => setTyped(e.currentTarget.value)} /></label>
      <p class="muted small">${t("acct_restore_hint")}</p>
      <button type="submit">${t("acct_restore_btn")}</button>
    </form>
    ${note ? html`<p class="note" role="status" data-testid="account-note">${note}</p>` : ""}
  </section>`;
}

// /me/link/TOKEN: this device becomes the person of the link, on a tap (a chat app's
// link preview opens the page but never taps, so it cannot use the link up).
export function LinkPage({ token }) {
  const [state, setState] = useState({ done: false, msg: "" });
  async function take() {
    try {
      keepPerson(await api(`/api/me/link/${encodeURIComponent(token)}`, { method: "POST", body: {} }));
      setState({ done: true, msg: t("acct_linked") });
    } catch (err) { setState({ done: false, msg: errorText(err) }); }
  }
  return html`<div class="page lobby">
    <${TopBar} title=${t("account")} />
    <main class="cards"><section class="card" data-testid="link-page">
      <p>${t("acct_link_take")}</p>
      ${state.done ? html`<a class="button primary" href="/">${t("back_lobby")}</a>`
        : html`<button type="button" class="primary" data-testid="take-link" onClick=${take}>${t("acct_link_btn")}</button>`}
      ${state.msg ? html`<p class="note" role="status" data-testid="link-note">${state.msg}</p>` : ""}
    </section></main>
  </div>`;
}
