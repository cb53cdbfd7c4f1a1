// The table as one person sees it: every seat's concealed tiles (faces when they may see
// them, else backs), melds with where they came from, flowers and discards; the wall,
// the indicator and the wildcard in the middle. Shared by the live table and the replay.
import { html } from "htm/preact";
import { t } from "./i18n.js";
import { Tile } from "./tiles.js";
import { MeldKind, Phase } from "./protocol.js";
import { displayName, indicatorWord, meldWord, relative, seatWind, wildMark, wildcardWord } from "./words.js";

// A board: {variant, n, me, names, dealer, phase, turn, hands[s] (list or null), drawn[s],
// hand_sizes, melds, discards, flowers, wall, indicators, wildcard, last_discard, robbing,
// extra, scores[s], status[s] = {online, auto, host}, hand (number)}.

export function Meld({ m, owner, n, names, wild, variant, size }) {
  const kind = m.kind;
  let shown = m.tiles.map((x) => x);
  if (kind === MeldKind.CONCEALED_KONG) shown = [null, m.tiles[1], m.tiles[2], null];
  let rot = -1;
  if (m.from !== undefined && m.claimed !== undefined && m.claimed !== null) {
    rot = shown.indexOf(m.claimed);
  }
  const from = m.from !== undefined && m.from !== null && m.from !== owner ? m.from : null;
  const rel = from === null ? "" : relative(owner, from, n);
  const title = `${meldWord(kind, variant)}${from === null ? "" : ` ← ${rel} ${displayName(names[from])}`}`;
  return html`<span class="meld" title=${title} aria-label=${title}>
    <span class="tiles">${shown.map((x, i) => html`<${Tile} key=${i} t=${x} size=${size}
      wild=${x !== null && x === wild} rot=${i === rot} />`)}</span>
    <small class="meld-tag">${meldWord(kind, variant)}${from === null ? "" : html` ←${rel}`}</small>
  </span>`;
}

function SeatPanel({ b, s, rel, children, noHand }) {
  const n = b.n;
  const names = b.names;
  const st = (b.status && b.status[s]) || {};
  const active = [Phase.TURN, Phase.CLAIM, Phase.ROB].includes(b.phase) && b.turn === s;
  const declared = b.extra && b.extra.declared && b.extra.declared[s];
  const hidden = b.hands[s] === null || b.hands[s] === undefined;
  const size = rel === 0 && b.me !== null && b.me !== undefined ? "" : "small";  // big: your own
  const own = s === b.me && !b.replay;  // your discards: smaller, labelled, apart from the hand
  const concealed = hidden
    ? Array.from({ length: (b.hand_sizes && b.hand_sizes[s]) || 0 }, () => null)
    : b.hands[s];
  const last = b.last_discard && b.last_discard.seat === s;
  const robbing = b.robbing && b.robbing.seat === s;
  const discards = (b.discards && b.discards[s]) || [];
  const drawn = b.drawn ? b.drawn[s] : null;
  let handTiles = concealed;
  if (!hidden && drawn !== null && drawn !== undefined && b.phase === Phase.TURN && b.turn === s) {
    const i = concealed.lastIndexOf(drawn);
    if (i >= 0) handTiles = [...concealed.slice(0, i), ...concealed.slice(i + 1)];
  }
  return html`<section class=${`seat rel-${rel} ${active ? "active" : ""} ${b.phase === Phase.OVER && b.winners && b.winners.includes(s) ? "winner" : ""}`}
      data-seat=${s} aria-label=${`${displayName(names[s])} · ${seatWind(s, b.dealer, n, true)}`}>
    <header class="seat-head">
      <span class="wind" title=${seatWind(s, b.dealer, n, true)}>${seatWind(s, b.dealer, n)}</span>
      <span class="who">${displayName(names[s])}${s === b.me && !b.replay ? html` <em>(${t("you")})</em>` : ""}</span>
      ${s === b.dealer ? html`<span class="tag dealer" title=${t("dealer_long")}>${t("dealer")}</span>` : ""}
      ${declared ? html`<span class="tag declared">${declared === "heavenly" ? t("f_heavenly") : t("f_earthly")}</span>` : ""}
      ${st.auto ? html`<span class="tag auto">${t("auto_short")}</span>` : ""}
      ${st.online === false ? html`<span class="tag off">${t("offline")}</span>` : ""}
      <span class="score">${b.scores && b.scores[s] !== undefined ? (b.scores[s] > 0 ? `+${b.scores[s]}` : b.scores[s]) : ""}</span>
    </header>
    ${noHand ? "" : children || html`<div class=${`concealed ${hidden ? "hidden" : "open"}`} aria-label=${hidden ? t("concealed_n", { n: concealed.length }) : t("hand_of", { name: displayName(names[s]) })}>
      ${hidden && (rel !== 0 || b.me === null || b.me === undefined)
        ? html`<span class="backs">${concealed.slice(0, 17).map((_, i) => html`<${Tile} key=${i} t=${null} size="tiny" />`)}</span>
               <span class="count">${concealed.length}</span>`
        : html`<span class="tiles">${handTiles.map((x, i) => html`<${Tile} key=${i} t=${x} size=${size} wild=${x !== null && x === b.wildcard} wildMark=${wildMark(b.variant)} />`)}</span>
               ${handTiles !== concealed ? html`<span class="drawn-gap"></span><${Tile} t=${drawn} size=${size} wild=${drawn === b.wildcard} wildMark=${wildMark(b.variant)} cls="drawn" />` : ""}`}
    </div>`}
    ${(!noHand && (b.melds[s] || []).length) || (b.flowers[s] || []).length ? html`<div class="melds">
      ${(noHand ? [] : b.melds[s] || []).map((m, i) => html`<${Meld} key=${i} m=${m} owner=${s} n=${n} names=${names} wild=${b.wildcard} variant=${b.variant} size="small" />`)}
      ${(b.flowers[s] || []).length ? html`<span class="flowers" aria-label=${t("flowers")}>${b.flowers[s].map((x, i) => html`<${Tile} key=${i} t=${x} size="small" />`)}</span>` : ""}
    </div>` : ""}
    <div class=${`discards ${own ? "own" : ""}`} aria-label=${own ? t("my_discards") : t("discards")}>
      ${own ? html`<span class="discards-label" aria-hidden="true">${t("my_discards")}</span>` : ""}
      ${discards.map((x, i) => html`<${Tile} key=${i} t=${x} size=${own ? "tiny" : "small"} wild=${x === b.wildcard} wildMark=${wildMark(b.variant)} last=${last && i === discards.length - 1} />`)}
      ${robbing ? html`<${Tile} t=${b.robbing.tile} size=${own ? "tiny" : "small"} last=${true} />` : ""}
    </div>
  </section>`;
}

export function Center({ b, extra }) {
  const pw = b.prevalent;
  return html`<div class="center" aria-live="polite">
    <div class="wallcount" title=${t("wall_long", { n: b.wall })}>${t("wall", { n: b.wall })}</div>
    ${pw !== null && pw !== undefined ? html`<div class="prevalent">${t("prevalent", { w: t("winds")[pw] })}${b.extra && b.extra.dealer_streak ? ` · ${t("streak", { n: b.extra.dealer_streak })}` : ""}</div>` : ""}
    ${(b.indicators || []).length ? html`<div class="wildrow">
      <span class="lbl">${indicatorWord(b.variant)}</span>
      ${b.indicators.map((x, i) => html`<${Tile} key=${i} t=${x} size="small" ind=${true} />`)}
      ${b.wildcard !== null && b.wildcard !== undefined ? html`<span class="lbl">${wildcardWord(b.variant)}</span>
        <${Tile} t=${b.wildcard} size="small" wild=${true} wildMark=${wildMark(b.variant)} />` : ""}
    </div>` : ""}
    ${extra || ""}
  </div>`;
}

// The whole board; `mine` replaces the bottom seat's concealed tiles (the live hand);
// `dock`: the live hand and its melds are shown apart, below the board (the table's
// dock), not here.
export function Board({ b, mine, center, dock }) {
  const bottom = b.me === null || b.me === undefined ? 0 : b.me;
  const seats = Array.from({ length: b.n }, (_, s) => s);
  const relOf = (s) => {
    const r = (s - bottom + b.n) % b.n;
    if (b.n === 3 && r === 2) return 3; // 上家 sits on the left
    return r;
  };
  return html`<div class=${`board seats-${b.n}`}>
    ${seats.filter((s) => s !== bottom).map((s) => html`<${SeatPanel} key=${s} b=${b} s=${s} rel=${relOf(s)} />`)}
    <${Center} b=${b} extra=${center} />
    <${SeatPanel} b=${b} s=${bottom} rel=${0} noHand=${dock}>${mine}</${SeatPanel}>
  </div>`;
}
