// Replays: /replay/CODE steps through any finished hand of a room, during the match too,
// forward and back, from one seat's view (what that seat saw) or with all hands open; its
// deal (the hand's key and the wall it gives) to check (docs/deals.md).
import { html } from "htm/preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { t, variantName } from "./i18n.js";
import { api } from "./api.js";
import { Board } from "./board.js";
import { Settlement } from "./settle.js";
import { TopBar } from "./ui.js";
import { displayName, errorText, eventLine, prevalentWind } from "./words.js";
import { ErrorCode, GameEventType, Outcome } from "./protocol.js";
import { descriptor } from "./variants.js";

export function ReplayPage({ code }) {
  const [index, setIndex] = useState(null);
  const [err, setErr] = useState(null);
  const [number, setNumber] = useState(null);
  const [hand, setHand] = useState(null);
  const [i, setI] = useState(0);
  const [seat, setSeat] = useState("all");
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    api(`/api/rooms/${encodeURIComponent(code)}/replay`).then((r) => {
      setIndex(r);
      const want = Number(new URLSearchParams(location.search).get("hand"));
      if (r.hands.length) setNumber(r.hands.some((h) => h.number === want) ? want : r.hands[0].number);
    }).catch((e) => setErr(e));
  }, [code]);

  useEffect(() => {
    if (number === null) return;
    setHand(null);
    api(`/api/rooms/${encodeURIComponent(code)}/replay/${number}`).then((h) => { setHand(h); setI(0); }).catch((e) => setErr(e));
  }, [code, number]);

  const steps = hand ? hand.steps : [];
  const last = Math.max(0, steps.length - 1);
  const go = (k) => setI(Math.max(0, Math.min(last, k)));
  const by = (d) => setI((cur) => Math.max(0, Math.min(last, cur + d)));

  useEffect(() => {
    if (!playing) return undefined;
    if (i >= last) { setPlaying(false); return undefined; }
    const id = setTimeout(() => go(i + 1), 700);
    return () => clearTimeout(id);
  }, [playing, i, last]);

  useEffect(() => {
    function onKey(e) {
      if (e.target && ["INPUT", "SELECT"].includes(e.target.tagName)) return;
      if (e.key === "ArrowRight") { by(1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { by(-1); e.preventDefault(); }
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(last);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const step = steps[i];
  const me = seat === "all" ? null : Number(seat);
  const board = useMemo(() => {
    if (!hand || !step) return null;
    const n = hand.seats.length;
    const open = (s) => me === null || s === me;
    const prevalent = prevalentWind(descriptor(hand.variant), step.extra, hand.end.record.options);
    return { ...step, variant: hand.variant, n, me, names: hand.seats,
      hands: step.hands.map((h, s) => (open(s) ? h : null)),
      drawn: step.drawn.map((d, s) => (open(s) ? d : null)),
      prevalent, scores: undefined, replay: true,
      winners: step.result && step.result.record.outcome === Outcome.WIN ? step.result.record.winners : [] };
  }, [hand, step, me, descriptor(hand && hand.variant)]);

  const lines = useMemo(() => {
    if (!hand || !step) return [];
    const out = [];
    for (const ev of step.events) {
      if (me !== null && ev.type === GameEventType.ACTION && ev.answer && ev.action.seat !== me) continue;
      const shown = me !== null && ev.type === GameEventType.DRAW && ev.seat !== me ? { ...ev, tile: null } : ev;
      const line = eventLine(shown, hand.seats, null, step.wildcard, hand.variant);
      if (line) out.push(line);
    }
    return out;
  }, [hand, step, me]);

  useEffect(() => { document.title = `${t("replay")} ${code}`; });

  const title = t("replay_title", { code });
  if (err) {
    return html`<div class="page"><${TopBar} title=${title} /><main class="cards"><section class="card">
      <p>${err.code === ErrorCode.UNKNOWN_ROOM ? t("err_unknown_room")
        : err.code === ErrorCode.HAND_IN_PROGRESS ? t("replay_in_progress") : err.code === ErrorCode.NO_HAND ? t("replay_no_hand") : errorText(err)}</p>
      <a href=${`/r/${code}`}>${t("room")} ${code}</a> · <a href="/">${t("back_lobby")}</a></section></main></div>`;
  }
  if (!index) return html`<div class="page"><${TopBar} title=${title} /><p class="loading">${t("loading")}</p></div>`;
  if (!index.hands.length) return html`<div class="page"><${TopBar} title=${title} /><p class="card">${t("no_hands")}</p></div>`;

  return html`<div class="page replay-page">
    <${TopBar} title=${html`${title} · ${variantName(index.variant)}`} />
    <div class="replay-controls card">
      <div class="row">
        <label for="hand">${t("hand")}
          <select id="hand" name="hand" value=${number} onChange=${(e) => setNumber(Number(e.currentTarget.value))}>
            ${index.hands.map((h) => html`<option value=${h.number}>${t("hand_no", { n: h.number + 1 })}${h.outcome === Outcome.DRAW ? ` · ${t("sk_draw")}` : ""}</option>`)}
          </select></label>
        <label for="seat">${t("view_from")}
          <select id="seat" name="seat" value=${seat} onChange=${(e) => setSeat(e.currentTarget.value)}>
            <option value="all">${t("all_open")}</option>
            ${(hand ? hand.seats : []).map((p, s) => html`<option value=${String(s)}>${displayName(p)}</option>`)}
          </select></label>
        ${index.over === false ? html`<a href=${`/r/${code}`} data-testid="back-to-room">${t("room")} ${code}</a>` : ""}
      </div>
      ${hand ? html`<div class="stepper">
        <button type="button" onClick=${() => go(0)} disabled=${i === 0} aria-label=${t("first")}>⏮</button>
        <button type="button" data-testid="prev" onClick=${() => by(-1)} disabled=${i === 0} aria-label=${t("prev")}>◀</button>
        <button type="button" onClick=${() => setPlaying(!playing)} class="playbtn">${playing ? t("stop") : t("play")}</button>
        <button type="button" data-testid="next" onClick=${() => by(1)} disabled=${i >= last} aria-label=${t("next")}>▶</button>
        <button type="button" data-testid="last" onClick=${() => go(last)} disabled=${i >= last} aria-label=${t("last")}>⏭</button>
        <input type="range" min="0" max=${last} value=${i} aria-label=${t("step", { i: i + 1, n: steps.length })}
          onInput=${(e) => go(Number(e.currentTarget.value))} />
        <span class="muted" data-testid="step">${t("step", { i: i + 1, n: steps.length })}</span>
      </div>
      <ol class="feed step-events">${lines.map((s, k) => html`<li key=${k}>${s}</li>`)}</ol>` : html`<p class="loading">${t("loading")}</p>`}
    </div>
    ${board ? html`<main class="felt"><${Board} b=${board} /></main>` : ""}
    ${hand && step && step.result ? html`<section class="card" data-testid="replay-settlement">
      <h2>${t("settlement")}</h2><${Settlement} end=${hand.end} names=${hand.seats} /></section>` : ""}
    ${hand && hand.deal ? html`<details class="card deal-check" data-testid="deal-check"><summary>${t("deal_check")}</summary>
      <p class="muted small">${t("deal_check_text")}</p>
      <p class="small">${t("deal_key")}: <code style="word-break:break-all">${hand.deal.key}</code></p></details>` : ""}
  </div>`;
}
