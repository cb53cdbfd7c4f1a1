// The log: every event of the stream this person may see, as a line (words.js eventLine).
import { html } from "htm/preact";
import { useEffect, useRef } from "preact/hooks";
import { useStore } from "./store.js";
import { eventLine } from "./words.js";
import { GameEventType } from "./protocol.js";

export function Feed() {
  const feed = useStore((s) => s.feed);
  const names = useStore((s) => s.handNames);
  const me = useStore((s) => s.mySeat);
  const frame = useStore((s) => s.frame);
  const variant = frame.view.table.variant;
  const lines = [];
  let w = frame.view.wildcard;
  for (const ev of feed) {
    if (ev.type === GameEventType.INDICATOR) w = ev.wildcard;
    const line = eventLine(ev, names, me, w, variant);
    if (line) lines.push([ev.v, line, ev.type]);
  }
  const ref = useRef(null);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [feed]);
  return html`<ol class="feed" ref=${ref} aria-live="polite">${lines.slice(-120).map(([v, s, k]) => html`<li key=${v} class=${`ev-${k}`}>${s}</li>`)}</ol>`;
}
