// Pieces every page shares: the top bar with the language and display switches, a toast.
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { CHOICES, getChoice, setLang, t } from "./i18n.js";
import { getDisplay, onDisplay, setDisplay } from "./display.js";

// Each language named in itself: the switch shows the one in use; a tap moves to the next.
const LANG_LABEL = { zh: ["简", "简体中文"], "zh-Hant": ["繁", "繁體中文"], en: ["EN", "English"] };

export function LangSwitch() {
  const now = getChoice();
  const next = CHOICES[(CHOICES.indexOf(now) + 1) % CHOICES.length];
  return html`<button type="button" class="lang" data-testid="lang" data-lang=${now}
    onClick=${() => setLang(next)} title=${t("lang_switch")}
    aria-label=${`${LANG_LABEL[now][1]} → ${LANG_LABEL[next][1]}`}>${LANG_LABEL[now][0]}</button>`;
}

// 大字模式 on or off (remembered on the device).
export function DisplaySwitch() {
  const [, setTick] = useState(0);
  useEffect(() => onDisplay(() => setTick((x) => x + 1)), []);
  const large = getDisplay() === "large";
  return html`<button type="button" class=${`lang display ${large ? "on" : ""}`} data-testid="display"
    aria-pressed=${large ? "true" : "false"} title=${t("display_large")} aria-label=${t("display_large")}
    onClick=${() => setDisplay(large ? "normal" : "large")}>${t("display_btn")}</button>`;
}

export function TopBar({ title, children }) {
  return html`<header class="topbar">
    <a class="home" href="/" title=${t("back_lobby")}><img src="/static/tiles/7z.svg" alt="" /> <span>${t("app")}</span></a>
    <h1>${title}</h1>
    <div class="topbar-right">${children}<${DisplaySwitch} /><${LangSwitch} /></div>
  </header>`;
}

export function Toast({ msg, kind }) {
  if (!msg) return null;
  return html`<div class=${`toast ${kind || ""}`} role="status" aria-live="assertive">${msg}</div>`;
}

// A message that goes away by itself: const [toast, show] = useToast(); show(msg, kind).
/** @returns {[any, (msg: string, kind?: string) => void]} */
export function useToast() {
  const [state, setState] = useState({ msg: "", kind: "" });
  const timer = useRef(null);
  const show = (msg, kind = "error") => {
    clearTimeout(timer.current);
    setState({ msg, kind });
    timer.current = setTimeout(() => setState({ msg: "", kind: "" }), 4000);
  };
  return [html`<${Toast} msg=${state.msg} kind=${state.kind} />`, show];
}

// A tap on the dimmed page around a modal closes it, but not in its first TAP_GUARD_MS:
// a modal that opens by itself (a hand's settlement) under a finger already tapping a
// tile or a button would otherwise be closed unread by that very tap.
export const TAP_GUARD_MS = 600;

// blocking=false: the page around it stays usable (the table's dock while a prompt is up).
export function Modal({ open, onClose, title, children, testid, blocking = true }) {
  // When this modal (with this title: a later hand's settlement replaces an earlier one's)
  // was shown; read at render, so no effect has to run before the first tap is judged.
  const shown = useRef({ title: null, at: 0 });
  if (!open) { shown.current.title = null; return null; }
  if (shown.current.title !== title) shown.current = { title, at: performance.now() };
  const outside = (e) => {
    if (e.target !== e.currentTarget || !onClose) return;
    if (performance.now() - shown.current.at >= TAP_GUARD_MS) onClose();
  };
  return html`<div class="modal-back" onClick=${outside}>
    <div class="modal" role="dialog" aria-modal=${blocking ? "true" : "false"} aria-label=${title} data-testid=${testid}>
      <header class="modal-head"><h2>${title}</h2>${onClose ? html`<button type="button" class="x" aria-label=${t("close")} onClick=${onClose}>×</button>` : ""}</header>
      <div class="modal-body">${children}</div>
    </div>
  </div>`;
}

// Copy text to the clipboard, also over plain http (no secure context: no
// navigator.clipboard): a selected off-screen textarea and execCommand("copy").
// Whether it worked (else the caller shows the text selected, to copy by hand).
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); return true; } catch { /* below */ }
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.cssText = "position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;font-size:16px";
  document.body.appendChild(ta);
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  ta.focus();
  ta.select();
  ta.setSelectionRange(0, text.length);
  let ok = false;
  try { ok = document.execCommand("copy"); } catch { ok = false; }
  ta.remove();
  if (focused && focused.focus) focused.focus({ preventScroll: true });
  return ok;
}
