// Pieces every page shares: the top bar with the language switch, a toast.
import { html } from "htm/preact";
import { useRef, useState } from "preact/hooks";
import { getLang, setLang, t } from "./i18n.js";

export function LangSwitch() {
  return html`<button type="button" class="lang" data-testid="lang"
    onClick=${() => setLang(getLang() === "zh" ? "en" : "zh")}
    aria-label=${getLang() === "zh" ? "Switch to English" : "切换到中文"}>${t("lang_switch")}</button>`;
}

export function TopBar({ title, children }) {
  return html`<header class="topbar">
    <a class="home" href="/" title=${t("back_lobby")}><img src="/static/tiles/7z.svg" alt="" /> <span>${t("app")}</span></a>
    <h1>${title}</h1>
    <div class="topbar-right">${children}<${LangSwitch} /></div>
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

// blocking=false: the page around it stays usable (the table's dock while a prompt is up).
export function Modal({ open, onClose, title, children, testid, blocking = true }) {
  if (!open) return null;
  return html`<div class="modal-back" onClick=${(e) => { if (e.target === e.currentTarget && onClose) onClose(); }}>
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
