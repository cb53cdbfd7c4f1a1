// A hand's settlement, item by item (each reason's zh / en text), and every hand
// revealed. Reads a `hand_end` line (payments between people, horses, 下桌) or an engine
// `end` event / a score-keeper answer (payments between seats).
import { html } from "htm/preact";
import { reasonText, t } from "./i18n.js";
import { parseTiles, Tile, tileName } from "./tiles.js";
import { Outcome, WinHow } from "./protocol.js";
import { displayName, meldWord, relative, seatName, seatWind, wildMark } from "./words.js";

function party(x, names) {
  // A seat without a name is counted from 1 for people (the server's seats are 0-based),
  // as reasonText writes a seat of a text without its parts (seatName).
  if (typeof x === "number") return seatName(x, names);
  return displayName(x);
}

// 下桌 / 上桌: the server sends [seat, person] pairs (the seat the person left or took).
function person(x) {
  if (Array.isArray(x)) return x.find((v) => typeof v === "string") ?? null;
  return x;
}

// "小二 胡 二条 · 阿三 点炮": how the hand was won is said once (who dealt in or whose
// kong was robbed says it already). A 错和 (MCR profile=botzone) names its caller; its
// payments say what it cost.
export function headline(record, names) {
  if (record.outcome === Outcome.WRONG_WIN) return t("wrong_win_game", { who: party(record.from, names) });
  if (record.outcome !== Outcome.WIN) return t("draw_game");
  const who = record.winners.map((s) => party(s, names)).join(", ");
  const tile = parseTiles(record.tile)[0];
  let how = t(`how_${record.how}`);
  if (record.how === WinHow.DISCARD && record.from !== undefined) how = t("from_seat", { name: party(record.from, names) });
  if (record.how === WinHow.ROBBED_KONG && record.from !== undefined) how = t("robbed_from", { name: party(record.from, names) });
  if (record.after_kong) how += ` · ${t("after_kong")}`;
  return `${t("wins_on", { who, tile: tileName(tile) })} · ${how}`;
}

const signed = (v) => (v > 0 ? `+${v}` : `${v}`);
const sign = (v) => (v > 0 ? "pos" : v < 0 ? "neg" : "");

// A 买马 payment between people, worded from its horse reason (the engine's code and
// parameters: the tile, the seat it landed on, the table payment it follows): whose
// horse, which tile, on whose seat, and that its buyer pays or collects as that seat
// does. The table payment's own items are listed with that payment, not again here.
function horseText(p, r, names) {
  const x = r.params || {};
  const onPayee = x.seat === x.payee;
  return t(onPayee ? "horse_collects" : "horse_pays", {
    buyer: party(onPayee ? p.to : p.from, names),
    tile: tileName(parseTiles(x.tile)[0]),
    seat: party(x.seat, names),
    payer: party(x.payer, names),
    payee: party(x.payee, names),
    amount: p.amount,
  });
}

function RevealSeat({ record, s, names, n }) {
  const seat = record.seats[s] || {};
  const concealed = parseTiles(seat.concealed || "");
  const wild = record.wildcard !== undefined ? parseTiles(record.wildcard)[0] : null;
  const winner = record.outcome === Outcome.WIN && record.winners.includes(s);
  const win = winner ? parseTiles(record.tile)[0] : null;
  const mark = wildMark(record.variant);
  return html`<div class=${`reveal-seat ${winner ? "winner" : ""}`}>
    <div class="reveal-name"><span class="wind">${seatWind(s, record.dealer, n)}</span>
      ${party(s, names)}${s === record.dealer ? html` <span class="tag dealer">${t("dealer")}</span>` : ""}</div>
    <div class="reveal-tiles">
      ${seat.concealed === undefined ? html`<span class="muted">—</span>` : html`<span class="tiles">${concealed.map((x, i) => html`<${Tile} key=${i} t=${x} size="small" wild=${x === wild} wildMark=${mark} />`)}</span>`}
      ${win !== null ? html`<span class="wintile"><span class="plus">+</span><${Tile} t=${win} size="small" win=${true} wild=${win === wild} wildMark=${mark} /></span>` : ""}
      ${(seat.melds || []).map((m, i) => {
        const ts = parseTiles(m.tiles);
        const claimed = m.claimed !== undefined ? parseTiles(m.claimed)[0] : null;
        const rot = claimed === null ? -1 : ts.indexOf(claimed);
        const rel = m.from !== undefined && m.from !== s ? ` ←${relative(s, m.from, n)}` : "";
        return html`<span class="meld" key=${i} title=${meldWord(m.kind, record.variant) + rel}><span class="tiles">${ts.map((x, j) => html`<${Tile} key=${j} t=${x} size="small" rot=${j === rot} wild=${x === wild} wildMark=${mark} />`)}</span><small class="meld-tag">${meldWord(m.kind, record.variant)}${rel}</small></span>`;
      })}
      ${parseTiles(seat.flowers || "").length ? html`<span class="flowers">${parseTiles(seat.flowers).map((x, i) => html`<${Tile} key=${i} t=${x} size="small" />`)}</span>` : ""}
    </div>
  </div>`;
}

// end: {record, payments, net, horses?, left?, entered?}; names[seat] (the hand's people).
// At the top, on a phone's first screen: the headline, who 下桌 / 上桌 and your own
// result, every person's net, the horses (each buyer's tile and whose seat it landed on);
// below: every hand revealed and the payments item by item.
export function Settlement({ end, names, me }) {
  const record = end.record;
  const n = record.seats.length;
  const nets = Array.isArray(end.net)
    ? end.net.map((v, i) => [i, party(i, names), v])
    : Object.entries(end.net || {}).map(([p, v]) => [p, displayName(p), v]);
  const mine = me === undefined || me === null ? undefined
    : Array.isArray(end.net) ? undefined : (end.net || {})[me];
  const left = (end.left || []).map(person);
  const entered = (end.entered || []).map(person);
  const moves = left.length || entered.length;
  return html`<div class="settlement" data-outcome=${record.outcome}>
    <h3 class="headline">${headline(record, names)}</h3>
    ${moves || mine !== undefined ? html`<div class="summary" data-testid="settle-summary">
      ${moves ? html`<span class="rotation">${[
        ...left.map((x, i) => html`<span key=${`l${i}`} class="left">${displayName(x)} ${t("left_table")}</span>`),
        ...entered.map((x, i) => html`<span key=${`e${i}`} class="entered">${displayName(x)} ${t("entered_table")}</span>`),
      ].flatMap((x, i) => (i ? [html`<span key=${`s${i}`} class="sep"> · </span>`, x] : [x]))}</span>` : ""}
      ${moves && mine !== undefined ? html`<span class="sep"> · </span>` : ""}
      ${mine !== undefined ? html`<span class="my-net">${t("you")} <strong class=${sign(mine)}>${signed(mine)}</strong></span>` : ""}
    </div>` : ""}
    <div class="nets" data-testid="nets"><span class="muted">${t("net")}</span>
      ${nets.map(([k, p, v]) => html`<span key=${k} class=${`net ${me && k === me ? "me" : ""}`}>${p}${" "}<strong class=${sign(v)}>${signed(v)}</strong></span>`)}
    </div>
    ${(end.horses || []).length ? html`<div class="horses"><strong>${t("horses")}</strong>
      ${end.horses.map((h, i) => html`<span key=${i} class=${`horse ${me && h.person === me ? "me" : ""}`}>${displayName(h.person)}
        <${Tile} t=${parseTiles(h.tile)[0]} size="tiny" />${h.seat !== undefined ? html`<span class="landed">${t("horse_landed", { seat: party(h.seat, names) })}</span>` : ""}</span>`)}
    </div>` : ""}
    <div class="reveal">${record.seats.map((_, s) => html`<${RevealSeat} key=${s} record=${record} s=${s} names=${names} n=${n} />`)}</div>
    ${(end.payments || []).length ? html`<ol class="payments">
      ${end.payments.map((p, i) => {
        const horse = (p.reasons || []).find((r) => r.code === "horse");
        return html`<li key=${i} class=${`payment ${horse ? "horse-payment" : ""}`}>
        <div class="pay-line"><span>${t("pays", { a: party(p.from, names), b: party(p.to, names) })}</span>
          <strong class="amount">${p.amount}</strong></div>
        <ul class="reasons">${horse
          ? html`<li data-code="horse">${horseText(p, horse, names)}</li>`
          : p.reasons.map((r, j) => html`<li key=${j} data-code=${r.code}>${reasonText(r, (seat) => party(seat, names))}</li>`)}</ul>
      </li>`;
      })}
    </ol>` : ""}
  </div>`;
}

// A running ledger: rows = hands, columns = people (records: [{number, end}]); onRow(row),
// when given, opens a row's hand (its label is then a button).
export function LedgerTable({ people, rows, totals, onRow }) {
  return html`<div class="ledger-wrap"><table class="ledger">
    <thead><tr><th></th>${people.map((p) => html`<th key=${p} scope="col">${displayName(p)}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr key=${r.label}><th scope="row">${onRow
      ? html`<button type="button" class="ledger-hand" data-hand=${r.number} aria-label=${`${r.label} · ${t("settlement")}`}
          style="background:none;border:0;padding:0;font:inherit;color:inherit;text-decoration:underline dotted;cursor:pointer"
          onClick=${() => onRow(r)}>${r.label}</button>`
      : r.label}</th>${people.map((p) => {
      const v = r.values[p] || 0;
      return html`<td key=${p} class=${v > 0 ? "pos" : v < 0 ? "neg" : ""}>${v > 0 ? `+${v}` : v}</td>`;
    })}</tr>`)}</tbody>
    <tfoot><tr><th scope="row">${t("total")}</th>${people.map((p) => {
      const v = totals[p] || 0;
      return html`<td key=${p} class=${v > 0 ? "pos" : v < 0 ? "neg" : ""}><strong>${v > 0 ? `+${v}` : v}</strong></td>`;
    })}</tr></tfoot>
  </table>${onRow && rows.length ? html`<p class="muted small">${t("ledger_tap")}</p>` : ""}</div>`;
}
