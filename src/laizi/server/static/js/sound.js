// The table's sound, listening on the event bus (bus.js), never on component code:
// * effects for a discard, your draw, a claim and a win, synthesised with WebAudio (no
//   files to ship);
// * the calls 碰 / 吃 / 杠 / 胡 / 自摸 and each discarded tile's name spoken in Mandarin
//   (speechSynthesis, a zh voice where the device has one);
// * a turn alert, a short tone and a buzz (navigator.vibrate), when it becomes your turn
//   or a claim prompt opens.
// Volume and mute are each person's, remembered on the device (localStorage). Browsers
// let a page make sound only after a tap: the AudioContext is made (or resumed) on the
// first gesture, and nothing is played before. A device without WebAudio, speech or
// vibration just stays silent: nothing here throws.
import { bus, LocalEvent } from "./bus.js";
import { ActionType, GameEventType, MeldKind, Outcome, WinHow } from "./protocol.js";

/** @typedef {import("./protocol.js").EventJSON} EventJSON */
/** @typedef {{volume: number, mute: boolean}} SoundPrefs */

const PREFS_KEY = "laizi.sound";
const NUM = "一二三四五六七八九";
const SUITS = ["万", "筒", "条"];
// The honours as a caller says them (东风 … 红中), not as the tile's one character.
const HONOURS = ["东风", "南风", "西风", "北风", "白板", "发财", "红中"];
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];

// A tile's name as it is called at the table: 三万, 五筒, 一条, 红中, 东风.
/** @param {number} tile */
export function spokenName(tile) {
  if (tile < 27) return NUM[tile % 9] + SUITS[Math.floor(tile / 9)];
  if (tile < 34) return HONOURS[tile - 27];
  return FLOWERS[tile - 34] || "";
}

// The call a claim makes (碰 / 吃 / 杠).
/** @type {Record<string, string>} */
const MELD_CALL = { [MeldKind.CHOW]: "吃", [MeldKind.PUNG]: "碰", [MeldKind.KONG]: "杠" };
// A kong made on one's own turn (暗杠 / 加杠 / 红中杠 / 赖子杠) is called 杠 too.
const KONGS = [ActionType.CONCEALED_KONG, ActionType.ADDED_KONG, ActionType.SPECIAL_KONG];

// ------------------------------------------------------------------ preferences

/** @type {Set<(p: SoundPrefs) => void>} */
const prefListeners = new Set();

/** @returns {SoundPrefs} */
export function getPrefs() {
  try {
    const p = JSON.parse(localStorage.getItem(PREFS_KEY) || "null");
    if (p && typeof p.volume === "number") return { volume: Math.min(1, Math.max(0, p.volume)), mute: !!p.mute };
  } catch { /* a damaged entry: the defaults */ }
  return { volume: 0.8, mute: false };
}

/** @param {Partial<SoundPrefs>} patch */
export function setPrefs(patch) {
  const p = { ...getPrefs(), ...patch };
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(p)); } catch { /* private mode: this page only */ }
  if (p.mute) cancelSpeech();
  for (const fn of prefListeners) fn(p);
}

/** @param {(p: SoundPrefs) => void} fn */
export function onPrefs(fn) {
  prefListeners.add(fn);
  return () => { prefListeners.delete(fn); };
}

// ------------------------------------------------------------------ WebAudio effects

/** @type {AudioContext | null} */
let audio = null;
let gestured = false;
// A running AudioContext renders (silence) all the time: the device's audio thread and
// its battery work between two tones as much as during one. It is suspended once the
// last tone has ended, and resumed for the next (whose start waits on the context's own
// clock, frozen meanwhile).
const QUIET_MS = 250;  // after the last tone's end
let quietAt = 0;  // performance.now() when the last tone scheduled ends
let quietTimer = 0;
let asleep = false;  // suspended by quietLater (or on the way to it)

// Whether the person has tapped or typed on the page (browsers refuse sound before).
function activated() {
  const ua = /** @type {any} */ (navigator).userActivation;
  return gestured || !!(ua && ua.hasBeenActive);
}

function onGesture() {
  gestured = true;
  ensureAudio();  // started within a gesture (the browser's rule), then quiet till a tone
  quietLater();
}

// The AudioContext, made on the first gesture (or, after one, when first needed).
function ensureAudio() {
  try {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!audio && typeof Ctx === "function") audio = new Ctx();
    if (audio && (audio.state === "suspended" || asleep)) {
      asleep = false;
      audio.resume().catch(() => {});
    }
  } catch { audio = null; }
}

// Suspend the context once nothing is scheduled (quietAt passed), else look again then.
function quietLater() {
  clearTimeout(quietTimer);
  quietTimer = window.setTimeout(() => {
    if (performance.now() < quietAt) { quietLater(); return; }
    if (!audio || audio.state !== "running" || asleep) return;
    asleep = true;
    try { audio.suspend().catch(() => {}); } catch { /* no suspend: it runs on */ }
  }, Math.max(0, quietAt - performance.now()) + QUIET_MS);
}

// One enveloped tone: `freq` Hz (gliding to `to`), `dur` s, `at` s from now.
function tone(freq, dur, { type = "sine", level = 0.3, at = 0, to = freq } = {}) {
  const p = getPrefs();
  if (p.mute || p.volume <= 0 || !activated()) return;
  ensureAudio();  // made, or resumed after a quiet spell
  if (!audio) return;
  quietAt = Math.max(quietAt, performance.now() + (at + dur + 0.02) * 1000);
  quietLater();
  try {
    const t0 = audio.currentTime + at;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = /** @type {OscillatorType} */ (type);
    osc.frequency.setValueAtTime(freq, t0);
    if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, level * p.volume), t0 + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0);
    osc.stop(t0 + dur + 0.02);
  } catch { /* a context closed under us: silence */ }
}

/** The effects, each a few tones. */
export const effects = {
  discard: () => { tone(190, 0.07, { type: "triangle", level: 0.5, to: 90 }); tone(1400, 0.03, { type: "square", level: 0.06 }); },
  draw: () => tone(660, 0.06, { level: 0.15, to: 880 }),
  claim: () => { tone(520, 0.09, { type: "triangle", level: 0.35 }); tone(780, 0.12, { type: "triangle", level: 0.35, at: 0.08 }); },
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, 0.35, { type: "triangle", level: 0.3, at: i * 0.09 })),
  alert: () => { tone(880, 0.09, { level: 0.3 }); tone(1175, 0.12, { level: 0.3, at: 0.1 }); },
};

// ------------------------------------------------------------------ speech and buzz

function cancelSpeech() {
  try { if (window.speechSynthesis) window.speechSynthesis.cancel(); } catch { /* none */ }
}

// Say `text` in Mandarin, cutting off what is still being said (the table moves on: the
// latest discard matters, not a queue of old ones).
/** @param {string} text */
export function speak(text) {
  const p = getPrefs();
  const synth = window.speechSynthesis;
  if (!text || p.mute || p.volume <= 0 || !synth || typeof window.SpeechSynthesisUtterance !== "function" || !activated()) return;
  try {
    const u = new SpeechSynthesisUtterance(text);
    const voice = (synth.getVoices() || []).find((v) => /^(zh|cmn)/i.test(v.lang));
    if (voice) u.voice = voice;
    u.lang = voice ? voice.lang : "zh-CN";
    u.volume = p.volume;
    u.rate = 1.1;
    // Chrome may drop a speak() right after a cancel() with nothing to cancel.
    if (synth.speaking || synth.pending) synth.cancel();
    synth.speak(u);
  } catch { /* speech refused: silence */ }
}

function buzz(pattern) {
  const p = getPrefs();
  if (p.mute || typeof navigator.vibrate !== "function" || !activated()) return;
  try { navigator.vibrate(pattern); } catch { /* no vibration */ }
}

// ------------------------------------------------------------------ the listener

/** @param {any} ev @param {import("./bus.js").BusContext} ctx */
function hear(ev, ctx) {
  if (!ctx.live) return;  // a snapshot or a catch-up: what happened before is not replayed
  const me = ctx.state.mySeat;
  switch (ev.type) {
    case GameEventType.ACTION: {
      const a = ev.action;
      if (!a) return;
      if (a.type === ActionType.DISCARD) { effects.discard(); speak(spokenName(a.tile)); }
      else if (KONGS.includes(a.type)) { effects.claim(); speak("杠"); }
      else if (a.type === ActionType.DECLARE) speak("听");
      return;
    }
    case GameEventType.DRAW:
      if (ev.seat === me && me !== null) effects.draw();
      return;
    case GameEventType.CLAIM:
      effects.claim();
      speak(MELD_CALL[ev.meld && ev.meld.kind] || "杠");
      return;
    case GameEventType.END: {
      const r = ev.record;
      if (!r || r.outcome !== Outcome.WIN) return;
      effects.win();
      speak(r.how === WinHow.SELF_DRAW ? "自摸" : "胡");
      return;
    }
    case LocalEvent.MY_TURN:
    case LocalEvent.WINDOW:
      effects.alert();
      buzz(ev.type === LocalEvent.WINDOW ? [60, 40, 60] : 80);
      return;
    default:
  }
}

// Listen while a table is open; the returned function stops.
export function startSound() {
  const off = bus.on(hear);
  const opts = { capture: true, passive: true };
  window.addEventListener("pointerdown", onGesture, opts);
  window.addEventListener("keydown", onGesture, opts);
  return () => {
    off();
    window.removeEventListener("pointerdown", onGesture, opts);
    window.removeEventListener("keydown", onGesture, opts);
    cancelSpeech();
    quietAt = 0;
    quietLater();  // the table closed: the context goes quiet too
  };
}
