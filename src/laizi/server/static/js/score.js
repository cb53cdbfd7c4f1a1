// The score-keeper of a physical table (/score): pick the game and the players, tap in
// each hand (melds, the winner's tiles, how it was won) on a tile keyboard. The hall builds
// the hand record from the form and settles it at once with the very code that settles
// online play (POST /api/score/hand: the record, what is missing, the next hand's dealer
// and facts, and the verdict of /api/score/check, 200 even for an impossible hand), and
// keeps the session's running ledger in its database (exportable as JSON). The questions
// asked of each variant come from its descriptor (variants.js), never from its id.
import { html } from "htm/preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { getLang, pick, reasonText, t, variantName, zh } from "./i18n.js";
import { api, ApiError, ensurePerson, getName } from "./api.js";
import { changedOptions, OptionsForm } from "./options.js";
import { LedgerTable, Settlement } from "./settle.js";
import { formatTiles, mpsz, Tile, tileName } from "./tiles.js";
import { TopBar, useToast } from "./ui.js";
import { useVariants } from "./lobby.js";
import { displayName, errorText, meldWord, seatName, seatWind, wildcardWord } from "./words.js";
import { ErrorCode, MeldKind, Outcome, WinHow } from "./protocol.js";
import { descriptor } from "./variants.js";
import { dropPending, isOffline, keep, pendingHands, queueHand, savedGet, sendPending, useOnline } from "./offline.js";
import { CloseButton, ledgerOf, openSession, ShareCard, useLive, Watcher } from "./scoreshare.js";

const KEY = "laizi.score.session";

// Why the server refused a hand, in the page's language with the players' names (the
// refusal comes as data; its English message only when it has none).
function refusalText(e, names) {
  const refusal = e.detail && e.detail.refusal;
  return refusal ? reasonText(refusal, (s) => seatName(s, names)) : errorText(e);
}
/** @typedef {import("./variants.js").Descriptor} Descriptor */
/** @typedef {import("./variants.js").Fact} Fact */

/** @type {Set<string>} */
const CLAIMED = new Set([MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG]);
/** @type {Set<string>} */
const ONE_TILE = new Set([MeldKind.RED_DRAGON_KONG, MeldKind.LAIZI_KONG]);
const RED_DRAGON = 33;

// The tiles a meld of the form shows (the server builds the record from the same form).
function meldTiles(m, wild) {
  if (m.kind === MeldKind.RED_DRAGON_KONG) return [RED_DRAGON];
  if (m.kind === MeldKind.LAIZI_KONG) return wild === null ? [] : [wild];
  if (m.tile === null) return [];
  if (m.kind === MeldKind.CHOW) return [m.tile, m.tile + 1, m.tile + 2];
  if (m.kind === MeldKind.PUNG) return [m.tile, m.tile, m.tile];
  return [m.tile, m.tile, m.tile, m.tile];
}
const bigMeld = (m) => !ONE_TILE.has(m.kind);
const chowOk = (x) => x < 27 && x % 9 <= 6;

/**
 * The form of one hand, as the page holds it (and sends it to POST /api/score/hand).
 * @typedef {object} HandForm
 * @property {number} dealer
 * @property {string} outcome
 * @property {number | null} winner
 * @property {string} how
 * @property {number | null} from
 * @property {boolean} after_kong
 * @property {number | null} indicator
 * @property {Array<Array<{kind: string, tile: number | null, from: number}>>} melds
 * @property {number[][]} flowers
 * @property {number[]} concealed
 * @property {number | null} win_tile
 * @property {Record<string, any>} facts
 */

/** @returns {HandForm} */
function freshHand(n, dealer = 0, facts = {}) {
  return { dealer, outcome: Outcome.WIN, winner: null, how: WinHow.DISCARD, from: null, after_kong: false,
    indicator: null, melds: Array.from({ length: n }, () => []), flowers: Array.from({ length: n }, () => []),
    concealed: [], win_tile: null, facts };
}

// The facts a fresh hand starts from: every question's default (the descriptor's).
/** @param {Descriptor} d */
function defaultFacts(d) {
  return Object.fromEntries(d.facts.map((f) => [f.key, f.default]));
}

// What the server makes of the form (POST /api/score/hand): the record, what is missing,
// the next hand's dealer and facts and, when complete, the settlement or the refusal.
function askHand(session, hand) {
  return api("/api/score/hand", { method: "POST", body: { variant: session.variant, options: session.options, form: hand } });
}
const missingText = (m) => t(`sk_${m.code}`, m.params);

function Setup({ onStarted }) {
  const variants = useVariants();
  // from the club's page: /score?club=ID&variant=V (the club's game)
  const asked = new URLSearchParams(location.search);
  const club = asked.get("club");
  const [picked, setVariant] = useState(/** @type {string | null} */ (asked.get("variant")));
  const variant = picked ?? (variants && variants.length ? variants[0].id : null);
  const [options, setOptions] = useState({});
  const [names, setNames] = useState([]);
  const [toast, show] = useToast();
  const v = variants && variants.find((x) => x.id === variant);
  const n = v ? v.seats : 4;
  const shown = Array.from({ length: n }, (_, i) => names[i] ?? "");
  async function start(e) {
    e.preventDefault();
    if (isOffline()) { show(t("sk_offline_start")); return; }
    const filled = shown.map((x, i) => x.trim() || `${seatWind(i, 0, n, true)}`);
    try {
      await ensurePerson(getName());  // the session's first member is this phone's person
      const s = await api("/api/score/sessions", { method: "POST", body: { variant, options: changedOptions(v, options), names: filled, ...(club ? { club } : {}) } });
      onStarted(s);
    } catch (err) { show(errorText(err)); }
  }
  return html`<form class="card" onSubmit=${start} data-testid="sk-setup">
    <p class="muted">${t("sk_intro")}</p>
    ${club ? html`<p class="note" data-testid="sk-club-setup">${t("sk_club")}</p>` : ""}
    <label for="sk-variant">${t("variant")}
      <select id="sk-variant" name="variant" value=${variant} onChange=${(e) => { setVariant(e.currentTarget.value); setOptions({}); }}>
        ${(variants || []).map((x) => html`<option value=${x.id}>${variantName(x.id, x.name)}</option>`)}
      </select></label>
    <${OptionsForm} variant=${v} value=${options} onChange=${setOptions} lang=${getLang()} />
    <fieldset><legend>${t("sk_names")}</legend><div class="row">
      ${shown.map((x, i) => html`<label key=${i} for=${`sk-name-${i}`}>${seatWind(i, 0, n, true)}
        <input id=${`sk-name-${i}`} name=${`name-${i}`} maxlength="24" value=${x} placeholder=${seatWind(i, 0, n, true)}
          onInput=${(e) => { const c = [...shown]; c[i] = e.currentTarget.value; setNames(c); }} /></label>`)}
    </div></fieldset>
    <button type="submit" class="primary" disabled=${!variants}>${t("sk_start")}</button>
    ${toast}
  </form>`;
}

function TileKeyboard({ onPick, used, flowers, info }) {
  const rows = [[0, 9], [9, 18], [18, 27], [27, 34]];
  if (flowers) rows.push([34, 42]);
  const has = new Set(info.tiles);
  return html`<div class="tilekeys" role="group" aria-label=${t("sk_pick_tile")}>
    ${rows.map(([a, b]) => {
      const row = Array.from({ length: b - a }, (_, i) => a + i).filter((x) => has.has(x));
      return row.length ? html`<div class="keyrow" key=${a}>${row.map((x) => html`
        <${Tile} key=${x} t=${x} size="key" onClick=${() => onPick(x)} disabled=${(used[x] || 0) >= (info.counts[x] || 0)}
          label=${tileName(x)} cls=${used[x] ? "used" : ""} />`)}</div>` : "";
    })}
  </div>`;
}

function SeatChooser({ names, value, onChange, exclude, name, allowNone }) {
  return html`<div class="seatchoice" role="radiogroup">
    ${allowNone ? html`<label class="check"><input type="radio" name=${name} checked=${value === null} onChange=${() => onChange(null)} /> ${t("none")}</label>` : ""}
    ${names.map((p, s) => (s === exclude ? "" : html`<label class="check" key=${s}><input type="radio" name=${name} value=${s}
      checked=${value === s} onChange=${() => onChange(s)} /> ${p}</label>`))}
  </div>`;
}

function Keeper(props) {
  const [info, setInfo] = useState(null);
  const variants = useVariants();
  useEffect(() => { savedGet(`/api/score/variants/${props.session.variant}`).then(setInfo).catch(() => {}); }, [props.session.variant]);
  const d = variants && descriptor(props.session.variant);
  if (!info || !d) return html`<p class="loading">${t("loading")}</p>`;
  return html`<${KeeperForm} ...${props} info=${info} d=${d} />`;
}

function KeeperForm({ session, setSession, onNew, info, d }) {
  const n = session.names.length;
  const v = session.variant;
  const [hand, setHand] = useState(() => freshHand(n, 0, defaultFacts(d)));
  const [target, setTarget] = useState(/** @type {{kind: string, seat?: number, i?: number}} */ ({ kind: "concealed" }));
  const [wild, setWild] = useState(null);
  const [preview, setPreview] = useState(null);
  const [toast, show] = useToast();
  const timer = useRef(null);
  const asked = useRef(0);
  const names = session.names;
  const up = (patch) => setHand((h) => ({ ...h, ...patch }));
  const setFact = (k, val) => setHand((h) => ({ ...h, facts: { ...h.facts, [k]: val } }));
  // Offline (offline.js): a hand is kept on the device, pending, and sent when back online.
  const online = useOnline();
  const [, setPendingTick] = useState(0);
  const pending = pendingHands(session.id);
  // Sent when the network is back, on load, and when the hall answers again (a phone "online"
  // on a Wi-Fi that reached nothing never says `online`).
  const flush = () => {
    if (!pendingHands(session.id).length) return;
    sendPending(session.id).then((s) => { if (s) setSession(s); setPendingTick((x) => x + 1); });
  };
  useEffect(() => { if (online) flush(); }, [online]);

  useEffect(() => {
    if (hand.indicator === null || !info.indicator) { setWild(null); return; }
    savedGet(`/api/score/wildcard?variant=${v}&indicator=${mpsz(hand.indicator)}`).then((r) => setWild(r.wildcard)).catch(() => setWild(null));
  }, [hand.indicator, v]);

  // Settle at once: every change of the hand asks the server what it makes (debounced).
  // The answer is 200 either way: an impossible hand is a verdict to show, not a failed
  // request (which the browser would log as an error). A late answer to an older form
  // is dropped.
  useEffect(() => {
    clearTimeout(timer.current);
    const mine = ++asked.current;
    timer.current = setTimeout(() => {
      if (!online) { setPreview({ offline: true }); return; }
      askHand(session, hand)
        .then((r) => {
          if (mine !== asked.current) return;
          flush();
          if (r.missing.length) setPreview({ missing: r.missing.map(missingText) });
          else if (r.ok) setPreview({ ok: r.settlement, rec: r.record });
          else setPreview({ error: refusalText({ message: r.error.message, detail: r.error }, names), code: r.error.code });
        })
        .catch((e) => {
          if (mine !== asked.current) return;
          if (e instanceof ApiError) setPreview({ error: refusalText(e, names), code: e.code });
          else setPreview({ offline: true });  // the hall out of reach: as offline
        });
    }, 250);
    return () => clearTimeout(timer.current);
  }, [JSON.stringify(hand), online]);

  const used = useMemo(() => {
    const c = {};
    const add = (x) => { c[x] = (c[x] || 0) + 1; };
    hand.concealed.forEach(add);
    if (hand.win_tile !== null) add(hand.win_tile);
    if (hand.indicator !== null) add(hand.indicator);
    hand.melds.forEach((ms) => ms.forEach((m) => meldTiles(m, wild).forEach(add)));
    hand.flowers.forEach((fs) => fs.forEach(add));
    return c;
  }, [hand, wild]);

  function pick(x) {
    const tg = target;
    if (tg.kind === "indicator") { up({ indicator: x }); setTarget({ kind: "concealed" }); return; }
    if (tg.kind === "win") { up({ win_tile: x }); setTarget({ kind: "concealed" }); return; }
    if (tg.kind === "flowers") {
      if (x < 34) return;
      setHand((h) => { const fl = h.flowers.map((f) => [...f]); fl[tg.seat].push(x); return { ...h, flowers: fl }; });
      return;
    }
    if (tg.kind === "meld") {
      setHand((h) => {
        const melds = h.melds.map((ms) => ms.map((m) => ({ ...m })));
        const m = melds[tg.seat][tg.i];
        if (!m || x >= 34 || (m.kind === MeldKind.CHOW && !chowOk(x))) return h;
        m.tile = x;
        return { ...h, melds };
      });
      setTarget({ kind: "concealed" });
      return;
    }
    if (x >= 34) return;
    if (hand.winner === null) { show(t("sk_winner")); return; }
    const k = hand.melds[hand.winner].filter(bigMeld).length;
    if (hand.concealed.length >= info.hand_size - 3 * k) {
      if (hand.win_tile === null) up({ win_tile: x });
      return;
    }
    up({ concealed: [...hand.concealed, x].sort((a, b) => a - b) });
  }

  function addMeld(s) {
    setHand((h) => {
      const melds = h.melds.map((ms) => [...ms]);
      melds[s].push({ kind: MeldKind.PUNG, tile: null, from: (s + n - 1) % n });
      setTarget({ kind: "meld", seat: s, i: melds[s].length - 1 });
      return { ...h, melds };
    });
  }
  function setMeld(s, i, patch) {
    setHand((h) => {
      const melds = h.melds.map((ms) => ms.map((m) => ({ ...m })));
      Object.assign(melds[s][i], patch);
      if (melds[s][i].kind === MeldKind.CHOW && melds[s][i].tile !== null && !chowOk(melds[s][i].tile)) melds[s][i].tile = null;
      return { ...h, melds };
    });
  }
  function removeMeld(s, i) {
    setHand((h) => { const melds = h.melds.map((ms) => [...ms]); melds[s].splice(i, 1); return { ...h, melds }; });
    setTarget({ kind: "concealed" });
  }

  // Store the hand as the server builds it from the form as it is now, and start the
  // next one from the server's next dealer and facts.
  async function record() {
    if (!online || (preview && preview.offline)) {
      queueHand(session, hand);
      setHand(freshHand(n, hand.dealer, defaultFacts(d)));
      setTarget({ kind: "concealed" });
      window.scrollTo({ top: 0, behavior: "smooth" });
      return;
    }
    try {
      const made = await askHand(session, hand);
      if (made.missing.length) { show(t("sk_incomplete", { what: made.missing.map(missingText).join("、") })); return; }
      // the version this phone shows: another phone's hand stored meanwhile is a conflict
      const s = await api(`/api/score/sessions/${session.id}/hands`, { method: "POST", body: { record: made.record, version: session.version } });
      setSession(s);
      setHand(freshHand(n, made.next.dealer, made.next.facts));
      setTarget({ kind: "concealed" });
      window.scrollTo({ top: 0, behavior: "smooth" });
    } catch (e) { if (!(await conflict(e))) show(refusalText(e, names)); }
  }
  async function undo() {
    try { setSession(await api(`/api/score/sessions/${session.id}/hands/last?version=${session.version}`, { method: "DELETE" })); } catch (e) { if (!(await conflict(e))) show(errorText(e)); }
  }
  // Another phone wrote first: the ledger as it is now, and this phone's form kept.
  async function conflict(e) {
    if (!(e instanceof ApiError) || e.code !== ErrorCode.STALE_VERSION) return false;
    show(t("sk_conflict"));
    try { setSession(await api(`/api/score/sessions/${session.id}`)); } catch { /* the next poll */ }
    return true;
  }

  const w = hand.winner;
  const targetName = target.kind === "indicator" ? t("sk_indicator") : target.kind === "win" ? t("sk_win_tile")
    : target.kind === "flowers" ? `${names[target.seat]} · ${t("sk_flowers")}`
    : target.kind === "meld" ? `${names[target.seat]} · ${meldWord(hand.melds[target.seat][target.i]?.kind || "", v)}`
    : w === null ? t("sk_winner") : `${names[w]} · ${t("sk_concealed")}`;
  const { rows, totals } = ledgerOf(session);

  return html`<div class="keeper"><div class="keeper-main">
    <${ShareCard} session=${session} />
    <section class="card">
      <h2>${t("sk_hand", { n: session.hands.length + 1 })} · ${variantName(v)}</h2>
      <fieldset><legend>${t("dealer_long")}</legend>
        <${SeatChooser} names=${names} value=${hand.dealer} name="dealer" onChange=${(s) => up({ dealer: s })} /></fieldset>
      ${info.indicator ? html`<fieldset><legend>${t("sk_indicator")}</legend>
        <div class="slotrow"><button type="button" class=${`slot ${target.kind === "indicator" ? "on" : ""}`} data-testid="sk-indicator" onClick=${() => setTarget({ kind: "indicator" })}>
          ${hand.indicator === null ? "＋" : html`<${Tile} t=${hand.indicator} size="small" ind=${true} />`}</button>
          ${wild !== null ? html`<span>${wildcardWord(v)}: <${Tile} t=${wild} size="small" wild=${true} /></span>` : ""}</div></fieldset>` : ""}
      <fieldset><legend>${t("sk_outcome")}</legend><div class="radios">
        <label class="check"><input type="radio" name="outcome" checked=${hand.outcome === Outcome.WIN} onChange=${() => up({ outcome: Outcome.WIN })} /> ${t("sk_win")}</label>
        <label class="check"><input type="radio" name="outcome" checked=${hand.outcome === Outcome.DRAW} onChange=${() => up({ outcome: Outcome.DRAW })} /> ${t("sk_draw")}</label>
      </div></fieldset>
      ${hand.outcome === Outcome.WIN ? html`
        <fieldset><legend>${t("sk_winner")}</legend>
          <${SeatChooser} names=${names} value=${w} name="winner" onChange=${(s) => { up({ winner: s, from: hand.from === s ? null : hand.from }); setTarget({ kind: "concealed" }); }} /></fieldset>
        <fieldset><legend>${t("sk_how")}</legend><div class="radios">
          ${[WinHow.DISCARD, WinHow.SELF_DRAW, WinHow.ROBBED_KONG].map((h) => html`<label class="check" key=${h}><input type="radio" name="how" value=${h} checked=${hand.how === h} onChange=${() => up({ how: h })} /> ${t(`how_${h}`)}</label>`)}
          ${hand.how === WinHow.SELF_DRAW ? html`<label class="check"><input type="checkbox" name="after_kong" checked=${hand.after_kong} onChange=${(e) => up({ after_kong: e.currentTarget.checked })} /> ${t("after_kong")}</label>` : ""}
        </div></fieldset>
        ${hand.how !== WinHow.SELF_DRAW ? html`<fieldset><legend>${hand.how === WinHow.DISCARD ? t("sk_from") : t("sk_from_rob")}</legend>
          <${SeatChooser} names=${names} value=${hand.from} name="from" exclude=${w} onChange=${(s) => up({ from: s })} /></fieldset>` : ""}` : ""}
    </section>

    <section class="card seats-entry">
      ${names.map((p, s) => html`<div class=${`seat-entry ${s === w && hand.outcome === Outcome.WIN ? "winner" : ""}`} key=${s} data-seat=${s}>
        <h3>${seatWind(s, hand.dealer, n)} · ${p}${s === hand.dealer ? html` <span class="tag dealer">${t("dealer")}</span>` : ""}</h3>
        ${s === w && hand.outcome === Outcome.WIN ? html`<div class="concealed-entry">
          <div class="muted small">${t("sk_concealed")} · ${t("sk_tap_remove")}</div>
          <button type="button" class=${`slot wide ${target.kind === "concealed" ? "on" : ""}`} data-testid="sk-concealed" onClick=${() => setTarget({ kind: "concealed" })}>
            ${hand.concealed.length ? "" : "＋"}</button>
          <span class="tiles entered">${hand.concealed.map((x, i) => html`<${Tile} key=${i} t=${x} size="small" wild=${x === wild}
            onClick=${() => up({ concealed: hand.concealed.filter((_, j) => j !== i) })} label=${`${t("sk_remove")} ${tileName(x)}`} />`)}</span>
          <span class="muted small">${t("sk_tiles_count", { n: hand.concealed.length, want: info.hand_size - 3 * hand.melds[s].filter(bigMeld).length })}</span>
          <div class="slotrow"><span>${t("sk_win_tile")}</span>
            <button type="button" class=${`slot ${target.kind === "win" ? "on" : ""}`} data-testid="sk-win-tile" onClick=${() => setTarget({ kind: "win" })}>
              ${hand.win_tile === null ? "＋" : html`<${Tile} t=${hand.win_tile} size="small" win=${true} />`}</button></div>
        </div>` : ""}
        ${hand.melds[s].map((m, i) => html`<div class="meld-entry" key=${i}>
          <select aria-label=${t("sk_meld_kind")} value=${m.kind} onChange=${(e) => setMeld(s, i, { kind: e.currentTarget.value })}>
            ${Object.keys(d.melds).map((k) => html`<option value=${k}>${meldWord(k, v)}</option>`)}</select>
          ${bigMeld(m) ? html`<button type="button" class=${`slot ${target.kind === "meld" && target.seat === s && target.i === i ? "on" : ""}`}
            onClick=${() => setTarget({ kind: "meld", seat: s, i })}>${m.tile === null ? "＋" : ""}<span class="tiles">${meldTiles(m, wild).map((x, j) => html`<${Tile} key=${j} t=${x} size="tiny" />`)}</span></button>`
            : html`<span class="tiles">${meldTiles(m, wild).map((x, j) => html`<${Tile} key=${j} t=${x} size="tiny" />`)}</span>`}
          ${CLAIMED.has(m.kind) ? html`<select aria-label=${t("sk_meld_from")} value=${m.from} onChange=${(e) => setMeld(s, i, { from: Number(e.currentTarget.value) })}>
            ${names.map((q, j) => (j === s ? "" : html`<option value=${j}>← ${q}</option>`))}</select>` : ""}
          <button type="button" class="x" aria-label=${t("sk_remove")} onClick=${() => removeMeld(s, i)}>×</button>
        </div>`)}
        <div class="row buttons">
          <button type="button" class="small" data-testid=${`sk-add-meld-${s}`} onClick=${() => addMeld(s)}>＋ ${t("sk_add_meld")}</button>
          ${info.flowers.length ? html`<button type="button" class=${`small ${target.kind === "flowers" && target.seat === s ? "on" : ""}`} onClick=${() => setTarget({ kind: "flowers", seat: s })}>＋ ${t("sk_flowers")}</button>
            <span class="tiles">${hand.flowers[s].map((x, i) => html`<${Tile} key=${i} t=${x} size="tiny"
              onClick=${() => setHand((h) => { const fl = h.flowers.map((f) => [...f]); fl[s].splice(i, 1); return { ...h, flowers: fl }; })} label=${`${t("sk_remove")} ${tileName(x)}`} />`)}</span>` : ""}
        </div>
      </div>`)}
    </section>

    <${Facts} d=${d} hand=${hand} names=${names} setFact=${setFact} />
    </div><div class="keeper-side">

    <section class="card keyboard-card">
      <div class="muted small">${t("sk_target")} <strong>${targetName}</strong></div>
      <${TileKeyboard} onPick=${pick} used=${used} flowers=${target.kind === "flowers"} info=${info} />
    </section>

    <section class="card preview" data-testid="sk-preview" aria-live="polite">
      <h2>${t("sk_settle_now")}</h2>
      ${preview && preview.missing ? html`<p class="muted" data-testid="sk-missing">${t("sk_incomplete", { what: preview.missing.join("、") })}</p>` : ""}
      ${preview && preview.error ? html`<p class="invalid" role="alert" data-testid="sk-invalid">${t("sk_invalid", { msg: preview.error })}</p>` : ""}
      ${preview && preview.offline ? html`<p class="muted" data-testid="sk-offline">${t("sk_offline")}</p>
        <button type="button" class="primary" data-testid="sk-queue" onClick=${record}>${t("sk_queue")}</button>` : ""}
      ${preview && preview.ok ? html`<${Settlement} end=${{ ...preview.ok, record: { ...preview.ok.record } }} names=${names} />
        <button type="button" class="primary" data-testid="sk-record" onClick=${record}>${t("sk_record")}</button>` : ""}
      <button type="button" class="small" onClick=${() => { setHand(freshHand(n, hand.dealer, defaultFacts(d))); setTarget({ kind: "concealed" }); }}>${t("sk_clear")}</button>
    </section>

    <section class="card" data-testid="sk-ledger">
      <h2>${t("ledger")}</h2>
      ${session.hands.length ? html`<${LedgerTable} people=${names} rows=${rows} totals=${totals} />` : pending.length ? "" : html`<p class="muted">${t("sk_ledger_empty")}</p>`}
      ${pending.length ? html`<div class="pending" data-testid="sk-pending"><p class="muted small">${t("sk_pending_note")}</p>
        <ol start=${session.hands.length + 1}>${pending.map((p) => html`<li key=${p.id} data-testid="sk-pending-hand"><span class="tag">${t("sk_pending")}</span>
          ${p.form.outcome === Outcome.WIN && names[p.form.winner] !== undefined ? ` ${t("sk_pending_win", { name: names[p.form.winner] })}` : ` ${t("sk_draw")}`}
          ${p.problem ? html` <span class="invalid">${t("sk_pending_refused", { msg: p.problem.missing ? p.problem.missing.map(missingText).join("、") : refusalText({ message: p.problem.error.message, detail: p.problem.error }, names) })}</span>` : ""}
          <button type="button" class="x" aria-label=${t("sk_remove")} onClick=${() => { dropPending(p.id); setPendingTick((x) => x + 1); }}>×</button></li>`)}
      </ol></div>` : ""}
      <div class="row buttons">
        ${session.hands.length ? html`<button type="button" onClick=${undo}>${t("sk_undo")}</button>` : ""}
        <a class="button" href=${`/api/score/sessions/${session.id}/export`} download>${t("sk_export")}</a>
        <button type="button" onClick=${onNew}>${t("sk_new")}</button>
        <${CloseButton} session=${session} setSession=${setSession} show=${show} conflict=${conflict} />
      </div>
    </section>
    </div>
    ${toast}
  </div>`;
}

// The facts the tiles cannot show, as the variant's descriptor asks them: each on a win
// or every hand, some only for one way of winning.
/** @param {{d: Descriptor, hand: any, names: string[], setFact: (k: string, v: any) => void}} props */
function Facts({ d, hand, names, setFact }) {
  const f = hand.facts;
  const win = hand.outcome === Outcome.WIN;
  const asked = d.facts.filter((x) => (x.when !== "win" || win) && (!x.how.length || x.how.includes(hand.how)));
  if (!asked.length) return null;
  const number = (x) => (e) => setFact(x.key, Math.max(0, parseInt(e.currentTarget.value || "0", 10) || 0));
  /** @param {Fact} x */
  const field = (x) => {
    const label = pick(x.label);
    const id = `f-${x.key}`;
    switch (x.form) {
      case "bool":
        return html`<label class="check" key=${x.key}><input type="checkbox" name=${x.key} checked=${!!f[x.key]} onChange=${(e) => setFact(x.key, e.currentTarget.checked)} /> ${label}</label>`;
      case "seat":
        return html`<label key=${x.key}>${label}<${SeatChooser} names=${names} value=${f[x.key]} name=${x.key} exclude=${hand.winner} allowNone=${true} onChange=${(s) => setFact(x.key, s)} /></label>`;
      case "count":
        return html`<label key=${x.key} for=${id}>${label}<input id=${id} name=${x.key} type="number" min="0" max=${x.maximum} value=${f[x.key]} onInput=${number(x)} /></label>`;
      case "wind":
        return html`<label key=${x.key} for=${id}>${label}<select id=${id} name=${x.key} value=${f[x.key]} onChange=${(e) => setFact(x.key, e.currentTarget.value)}>
          ${d.winds.map((w) => html`<option value=${w}>${zh(w)}</option>`)}</select></label>`;
      default:
        return html`<label key=${x.key} for=${id}>${label}<select id=${id} name=${x.key} value=${f[x.key] || ""} onChange=${(e) => setFact(x.key, e.currentTarget.value || null)}>
          <option value="">${t("none")}</option>${x.choices.map(([c, w]) => html`<option value=${c}>${pick(w)}</option>`)}</select></label>`;
    }
  };
  const inline = asked.filter((x) => x.form !== "bool" && x.form !== "seat");
  const rest = asked.filter((x) => x.form === "bool" || x.form === "seat");
  return html`<section class="card"><h2>${t("sk_facts")}</h2>
    ${inline.length ? html`<div class="row">${inline.map(field)}</div>` : ""}${rest.map(field)}</section>`;
}

export function ScorePage() {
  const [session, setSession] = useState(null);
  const [loading, setLoading] = useState(true);
  const [toast, show] = useToast();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    // a new session for a club (?club=ID) starts afresh, not the one this phone kept
    const id = params.get("s") || (params.get("club") ? null : localStorage.getItem(KEY));
    if (!id) { setLoading(false); return; }
    openSession(id).then(({ session: s, note }) => {
      if (s.member) localStorage.setItem(KEY, s.id);
      if (note) show(note);
      setSession(s);
      setLoading(false);
    }).catch((e) => { if (e.status === 404) localStorage.removeItem(KEY); setLoading(false); });
  }, []);
  useLive(session, setSession);  // every phone's ledger follows the others' hands
  // The ledger as last seen, for a reload offline (offline.js).
  useEffect(() => { if (session) keep(`/api/score/sessions/${encodeURIComponent(session.id)}`, session); }, [session]);
  useEffect(() => { document.title = t("sk_title"); });
  function started(s) {
    localStorage.setItem(KEY, s.id);
    history.replaceState(null, "", `/score?s=${s.id}`);
    setSession(s);
  }
  function fresh() {
    localStorage.removeItem(KEY);
    history.replaceState(null, "", "/score");
    setSession(null);
  }
  return html`<div class="page score-page">
    <${TopBar} title=${session ? html`${t("sk_title")} · <span class="muted">${session.names.join(" · ")}</span>` : t("sk_title")} />
    <main class="cards">${loading ? html`<p class="loading">${t("loading")}</p>`
      : session && (!session.member || session.closed) ? html`<${Watcher} session=${session} onNew=${fresh} />`
      : session ? html`<${Keeper} key=${session.id} session=${session} setSession=${setSession} onNew=${fresh} />`
      : html`<${Setup} onStarted=${started} />`}</main>
    ${toast}
  </div>`;
}
