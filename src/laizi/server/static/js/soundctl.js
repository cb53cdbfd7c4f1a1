// The sound control in the table's top bar: a speaker button opens a small panel with
// mute and the volume, each person's, remembered on the device (sound.js prefs).
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { getLang } from "./i18n.js";
import { effects, getPrefs, onPrefs, setPrefs } from "./sound.js";

// This control's own words (zh, en).
const WORDS = { sound: ["声音", "Sound"], mute: ["静音", "Mute"], volume: ["音量", "Volume"] };
/** @param {keyof typeof WORDS} k */
const word = (k) => WORDS[k][getLang() === "zh" ? 0 : 1];

export function SoundControl() {
  const [prefs, setP] = useState(getPrefs);
  const [open, setOpen] = useState(false);
  useEffect(() => onPrefs(setP), []);
  // A tap anywhere else closes the panel.
  useEffect(() => {
    if (!open) return undefined;
    const close = (e) => { if (!e.target.closest || !e.target.closest(".sound-ctl")) setOpen(false); };
    window.addEventListener("pointerdown", close);
    return () => window.removeEventListener("pointerdown", close);
  }, [open]);
  const silent = prefs.mute || prefs.volume <= 0;
  return html`<span class="sound-ctl">
    <button type="button" class="sound-btn" data-testid="sound-button" aria-expanded=${open ? "true" : "false"}
      aria-label=${word("sound")} title=${word("sound")} onClick=${() => setOpen(!open)}>${silent ? "🔇" : "🔊"}</button>
    ${open ? html`<div class="sound-panel" data-testid="sound-panel" role="group" aria-label=${word("sound")}>
      <label class="check"><input type="checkbox" data-testid="sound-mute" checked=${prefs.mute}
        onChange=${(e) => setPrefs({ mute: e.currentTarget.checked })} /> ${word("mute")}</label>
      <label>${word("volume")} <input type="range" min="0" max="100" step="5" data-testid="sound-volume"
        value=${Math.round(prefs.volume * 100)} disabled=${prefs.mute}
        onInput=${(e) => setPrefs({ volume: Number(e.currentTarget.value) / 100 })}
        onChange=${() => effects.discard()} /></label>
    </div>` : ""}
  </span>`;
}
