// The phone as an app (docs/hall.md, "A phone that behaves like an app"): the service
// worker, installing, the screen kept awake through a hand, and a notice when it is your
// turn while the page is hidden. Every browser API here may be missing (plain http on a
// LAN address is no secure context: no service worker, no wake lock, no notification) or
// refused: then nothing happens and nothing is logged.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "./i18n.js";
import { pref, setPref } from "./api.js";

const NOTIFY = "notify";  // the person's opt-in, remembered on the device (api.js pref)

/** Register the service worker (static/sw.js, served at /sw.js): the app's files cached,
 * the score-keeper offline. Not while offline (the registration would only fail). */
export function registerWorker() {
  if (!("serviceWorker" in navigator) || navigator.onLine === false) return;
  const go = () => { navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {}); };
  // after the page has loaded: its precaching never competes with the first render
  if (document.readyState === "complete") go();
  else window.addEventListener("load", go, { once: true });
}

// ------------------------------------------------------------------ the screen awake

/** Keep the screen on while `active` (a hand under way) and the page is visible: a phone
 * that dims mid-hand drops its socket and its seat goes to 托管. The browser releases the
 * lock when the page is hidden, so it is asked again on coming back. @param {boolean} active */
export function useWakeLock(active) {
  useEffect(() => {
    const api = /** @type {any} */ (navigator).wakeLock;
    if (!active || !api || typeof api.request !== "function") return undefined;
    let lock = null;
    let done = false;
    const ask = () => {
      if (done || lock || document.visibilityState !== "visible") return;
      api.request("screen").then((l) => {
        if (done) { l.release().catch(() => {}); return; }
        lock = l;
        l.addEventListener("release", () => { if (lock === l) lock = null; });
      }).catch(() => {});  // refused (battery saver, no gesture yet): the screen may dim
    };
    ask();
    document.addEventListener("visibilitychange", ask);
    return () => {
      done = true;
      document.removeEventListener("visibilitychange", ask);
      if (lock) lock.release().catch(() => {});
      lock = null;
    };
  }, [active]);
}

// ------------------------------------------------------------------ notices

const canNotify = () => typeof window.Notification === "function";
const noticesOn = () => canNotify() && Notification.permission === "granted" && pref(NOTIFY, false) === true;

/** Show a notice (the service worker's showNotification where there is one: Android
 * Chrome has no `new Notification`). @param {string} body @param {string} tag */
function notify(body, tag) {
  const options = { body, tag, icon: "/static/icons/icon-192.png", data: { url: location.href } };
  const direct = () => {
    try {
      const n = new Notification(t("app"), options);
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* no constructor here (Android): nothing to do */ }
  };
  if ("serviceWorker" in navigator && navigator.serviceWorker.controller) {
    navigator.serviceWorker.ready.then((r) => r.showNotification(t("app"), options)).catch(direct);
  } else direct();
}

/** A notice when the page is hidden and the person has turned notices on: "your turn"
 * when `turn` becomes true, "the match is starting" when `started` goes from false to
 * true (null: not known yet, so a page opened on a started match says nothing).
 * @param {{turn: boolean, started: boolean | null, code: string}} what */
export function useTurnNotice({ turn, started, code }) {
  const was = useRef({ turn, started });
  useEffect(() => {
    const before = was.current;
    was.current = { turn, started };
    if (document.visibilityState !== "hidden" || !noticesOn()) return;
    if (started && before.started === false) notify(t("notice_start", { code }), `laizi-${code}-start`);
    else if (turn && !before.turn) notify(t("notice_turn", { code }), `laizi-${code}`);
  }, [turn, started]);
}

// ------------------------------------------------------------------ installing

/** @type {any} */
let installPrompt = null;
const installListeners = new Set();
window.addEventListener("beforeinstallprompt", (e) => {
  e.preventDefault();  // offered from our own button instead of the browser's bar
  installPrompt = e;
  for (const f of installListeners) f();
});
window.addEventListener("appinstalled", () => {
  installPrompt = null;
  for (const f of installListeners) f();
});

function useInstallPrompt() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const f = () => setTick((x) => x + 1);
    installListeners.add(f);
    return () => { installListeners.delete(f); };
  }, []);
  return installPrompt;
}

/** The device's own settings: install the app (when the browser offers it) and "notify me
 * when it is my turn" (asked only when tapped, never on load). */
export function AppSettings() {
  const prompt = useInstallPrompt();
  const [, setTick] = useState(0);
  const on = noticesOn();
  async function toggle() {
    if (on) setPref(NOTIFY, false);
    else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      setPref(NOTIFY, answer === "granted");
    }
    setTick((x) => x + 1);
  }
  async function install() {
    try { await prompt.prompt(); await prompt.userChoice; } catch { /* already used, or dismissed */ }
    installPrompt = null;
    setTick((x) => x + 1);
  }
  const denied = canNotify() && Notification.permission === "denied";
  return html`<section class="appsettings" data-testid="app-settings"><h3>${t("this_device")}</h3>
    ${prompt ? html`<p><button type="button" class="primary" data-testid="install" onClick=${install}>${t("install_app")}</button></p>` : ""}
    ${!canNotify() ? html`<p class="muted small">${t("notice_unavailable")}</p>`
      : denied ? html`<p class="muted small" data-testid="notify-denied">${t("notice_denied")}</p>`
      : html`<p><button type="button" class=${on ? "on" : ""} aria-pressed=${on ? "true" : "false"} data-testid="notify-toggle"
          onClick=${toggle}>${on ? t("notice_off") : t("notice_on")}</button></p>
        <p class="muted small">${t("notice_hint")}</p>`}
  </section>`;
}
