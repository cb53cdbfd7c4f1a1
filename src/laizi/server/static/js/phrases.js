// Quick phrases and emoji at the table (快捷语 / 表情): a fixed set, sent by id (never free
// text; the server refuses other ids and more than a few at once: docs/hall.md). Everybody
// in the room sees a bubble near the sender's seat for a few seconds. A person may mute
// them all, or one person's, remembered on the device.
//
// Mounted once in the table's top bar: <${Phrases} conn=${conn} names=${handNames} me=${myName} />
// (conn: the table's ref to its Conn; names: who sits where on the board).
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { pick, t } from "./i18n.js";
import { bus, LocalEvent } from "./bus.js";
import { ClientOp, ErrorCode, QuickPhrase, ServerOp } from "./protocol.js";
import { displayName } from "./words.js";

/** @typedef {import("./protocol.js").QuickPhraseWord} QuickPhraseWord */

/** @type {Record<QuickPhraseWord, string[]>} */
export const PHRASES = {
  [QuickPhrase.HURRY]: ["快点吧", "Hurry up, please"],
  [QuickPhrase.SORRY]: ["不好意思", "Sorry!"],
  [QuickPhrase.NICE]: ["打得好！", "Well played!"],
  [QuickPhrase.AGAIN]: ["再来一局", "One more hand?"],
  [QuickPhrase.THANKS]: ["谢谢", "Thanks"],
  [QuickPhrase.HELLO]: ["大家好", "Hello everyone"],
  [QuickPhrase.LUCK]: ["手气不错", "Lucky draw!"],
  [QuickPhrase.BYE]: ["我先走了", "I have to go"],
  [QuickPhrase.SMILE]: ["😄", "😄"],
  [QuickPhrase.LAUGH]: ["😂", "😂"],
  [QuickPhrase.CRY]: ["😭", "😭"],
  [QuickPhrase.ANGRY]: ["😠", "😠"],
  [QuickPhrase.THUMBS]: ["👍", "👍"],
  [QuickPhrase.FLOWER]: ["🌹", "🌹"],
};
const WORDS = {
  open: ["快捷语", "Quick phrases"],
  mute_all: ["不看快捷语", "Mute phrases"],
  mute_one: ["屏蔽", "Mute"],
  unmute: ["取消屏蔽", "Unmute"],
  too_fast: ["发得太快了，歇一会儿", "Too fast: wait a moment"],
  muted: ["已屏蔽：", "Muted: "],
};
const SHOWN_MS = 3000;
// A speech bubble drawn, not an emoji: a phone without an emoji font still shows it.
const BUBBLE = html`<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2"
  stroke-linejoin="round"><path d="M4 5h16v11H10l-5 4v-4H4z" /><path d="M8 9.5h8M8 12.5h5" /></svg>`;
const KEY = "laizi.phrases.mute";

/** @returns {{all: boolean, people: string[]}} */
function loadMute() {
  try {
    const m = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { all: m.all === true, people: Array.isArray(m.people) ? m.people.filter((p) => typeof p === "string") : [] };
  } catch { return { all: false, people: [] }; }
}

// Where a bubble goes: over the sender's seat on the board (the dock for oneself), else
// under the top bar; kept inside the screen.
function place(who, names, me) {
  const seat = names ? names.indexOf(who) : -1;
  const dock = who === me ? document.querySelector("[data-testid=dock]") : null;
  const el = dock || (seat >= 0 && document.querySelector(`.seat[data-seat="${seat}"]`));
  const r = el ? el.getBoundingClientRect() : null;
  // one's own just above the dock, never over the hand one is about to tap
  const top = r ? Math.min(Math.max(r.top + (dock ? -48 : 4), 56), innerHeight - 64) : 56;
  // right of the seat's name (its wind, name and 庄 stay readable)
  const left = r ? Math.min(Math.max(r.left + Math.min(150, r.width * 0.4), 6), innerWidth - 216) : 6;
  return `top:${Math.round(top)}px;left:${Math.max(6, Math.round(left))}px`;
}

export function Phrases({ send, names, me }) {
  const [open, setOpen] = useState(false);
  const [bubbles, setBubbles] = useState(/** @type {any[]} */ ([]));
  const [mute, setMute] = useState(loadMute);
  const [note, setNote] = useState("");
  const muteRef = useRef(mute);
  muteRef.current = mute;
  const seen = useRef(0);

  useEffect(() => {
    return bus.on((ev) => {
      if (ev.type !== LocalEvent.PHRASE) return;
      const f = /** @type {import("./bus.js").PhraseEvent} */ (ev);
      const m = muteRef.current;
      if (m.all || m.people.includes(f.who) || !PHRASES[f.id]) return;
      const key = ++seen.current;
      setBubbles((old) => [...old.filter((b) => b.who !== f.who), { key, who: f.who, id: f.id }]);
      setTimeout(() => setBubbles((old) => old.filter((b) => b.key !== key)), SHOWN_MS);
    });
  }, []);

  const keep = (m) => { localStorage.setItem(KEY, JSON.stringify(m)); setMute(m); if (m.all) setBubbles([]); };
  const muteOne = (who) => { keep({ ...mute, people: [...mute.people, who] }); setBubbles((old) => old.filter((b) => b.who !== who)); };
  async function say(id) {
    const ans = await send(ClientOp.PHRASE, { id });
    if (!ans) return;
    if (ans.op === ServerOp.ERROR) setNote(ans.error.code === ErrorCode.RATE_LIMITED ? pick(WORDS.too_fast) : ans.error.message);
    else { setNote(""); setOpen(false); }
  }
  const ids = /** @type {QuickPhraseWord[]} */ (Object.keys(PHRASES));
  const emoji = (id) => PHRASES[id][0] === PHRASES[id][1];
  return html`<button type="button" class=${`lang phrases-open ${open ? "on" : ""}`} data-testid="phrases-open"
      aria-expanded=${open ? "true" : "false"} title=${pick(WORDS.open)} aria-label=${pick(WORDS.open)}
      onClick=${() => setOpen(!open)}>${BUBBLE}</button>
    ${open ? html`<div class="phrase-back" onClick=${(e) => { if (e.target === e.currentTarget) setOpen(false); }}>
      <div class="phrase-picker" role="dialog" aria-label=${pick(WORDS.open)} data-testid="phrase-picker">
        <div class="phrase-list">${ids.filter((id) => !emoji(id)).map((id) => html`<button type="button" key=${id} data-phrase=${id}
          onClick=${() => say(id)}>${pick(PHRASES[id])}</button>`)}</div>
        <div class="phrase-emoji">${ids.filter(emoji).map((id) => html`<button type="button" key=${id} data-phrase=${id}
          onClick=${() => say(id)}>${PHRASES[id][0]}</button>`)}</div>
        ${note ? html`<p class="phrase-note" role="status">${note}</p>` : ""}
        <label class="check"><input type="checkbox" data-testid="phrases-mute" checked=${mute.all}
          onChange=${(e) => keep({ ...mute, all: e.currentTarget.checked })} /> ${pick(WORDS.mute_all)}</label>
        ${mute.people.length ? html`<p class="phrase-muted">${pick(WORDS.muted)}${mute.people.map((p) => html`<button type="button" class="small" key=${p}
          onClick=${() => keep({ ...mute, people: mute.people.filter((x) => x !== p) })}>${displayName(p)} · ${pick(WORDS.unmute)}</button>`)}</p>` : ""}
      </div></div>` : ""}
    ${bubbles.map((b) => html`<div class=${`phrase-bubble ${emoji(b.id) ? "emoji" : ""}`} key=${b.key} role="status"
        data-testid="phrase-bubble" data-who=${b.who} style=${place(b.who, names, me)}>
      <span class="phrase-who">${b.who === me ? t("you") : displayName(b.who)}</span>
      <span class="phrase-text">${pick(PHRASES[b.id])}</span>
      ${b.who !== me ? html`<button type="button" class="small phrase-mute" aria-label=${`${pick(WORDS.mute_one)} ${displayName(b.who)}`}
        onClick=${() => muteOne(b.who)}>${pick(WORDS.mute_one)}</button>` : ""}
    </div>`)}`;
}
