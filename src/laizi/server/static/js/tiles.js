// Tiles: ids 0-33 (万 筒 条, 东南西北 白发中) and flowers 34-41 (春夏秋冬 梅兰竹菊), as in
// laizi.tiles; MPSZ notation; the <Tile> picture with its name for screen readers.
import { html } from "htm/preact";
import { getLang, zh } from "./i18n.js";

const NUM = "一二三四五六七八九";
const SUIT_ZH = ["万", "筒", "条"];
const SUIT_EN = [["Character", "Characters"], ["Dot", "Dots"], ["Bamboo", "Bamboo"]];
const HONOURS_ZH = ["东", "南", "西", "北", "白", "发", "中"];
const HONOURS_EN = ["East wind", "South wind", "West wind", "North wind", "White dragon",
  "Green dragon", "Red dragon"];
const FLOWERS_ZH = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const FLOWERS_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo",
  "Chrysanthemum"];

export const RED = 33;

export function mpsz(t) {
  if (t < 27) return `${(t % 9) + 1}${"mps"[Math.floor(t / 9)]}`;
  if (t < 34) return `${t - 26}z`;
  return `${t - 33}f`;
}

export function nameZh(t) {
  if (t < 27) return NUM[t % 9] + SUIT_ZH[Math.floor(t / 9)];
  if (t < 34) return HONOURS_ZH[t - 27];
  return FLOWERS_ZH[t - 34];
}

export function nameEn(t) {
  if (t < 27) return `${(t % 9) + 1} ${SUIT_EN[Math.floor(t / 9)][t % 9 ? 1 : 0]}`;
  if (t < 34) return HONOURS_EN[t - 27];
  return FLOWERS_EN[t - 34];
}

export function tileName(t) {
  if (t === null || t === undefined) return getLang() === "zh" ? zh("暗牌") : "hidden tile";
  return getLang() === "zh" ? zh(nameZh(t)) : `${nameEn(t)} (${zh(nameZh(t))})`;
}

// A short name: 五筒 / 5p (for lists of tiles in English).
export function shortName(t) {
  if (t === null || t === undefined) return "?";
  return getLang() === "zh" ? zh(nameZh(t)) : mpsz(t);
}

export function isFlower(t) { return t >= 34; }

// "234p 55s" / "1369m124679p" / ["5p", 3] → ids (as laizi.tiles.parse reads MPSZ).
export function parseTiles(value) {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) {
    return value.flatMap((v) => (typeof v === "number" ? [v] : parseTiles(v)));
  }
  const out = [];
  let digits = [];
  for (const ch of String(value)) {
    if (ch >= "0" && ch <= "9") digits.push(Number(ch));
    else if ("mpszf".includes(ch)) {
      for (const d of digits) {
        if (ch === "m") out.push(d - 1);
        else if (ch === "p") out.push(9 + d - 1);
        else if (ch === "s") out.push(18 + d - 1);
        else if (ch === "z") out.push(27 + d - 1);
        else out.push(34 + d - 1);
      }
      digits = [];
    }
  }
  return out;
}

export function formatTiles(ts) {
  const groups = { m: [], p: [], s: [], z: [], f: [] };
  for (const t of [...ts].sort((a, b) => a - b)) {
    const n = mpsz(t);
    groups[n[1]].push(n[0]);
  }
  return Object.entries(groups).filter(([, d]) => d.length).map(([s, d]) => d.join("") + s)
    .join("");
}

// One tile. `t` null/undefined: the back. Options: wild (the wildcard), ind (an
// indicator), small / tiny / big, onClick (a button), selected, pending, dim, rot
// (a claimed tile, turned), last (the latest discard), label (the accessible name when
// clickable, e.g. "打 五筒"), reason (why a disabled one cannot be played: data-reason),
// unavailable (aria-disabled: it cannot be played, but a tap still reaches onClick, which
// says why — a `disabled` button gets no click or pointerup in Firefox / Safari).
export function Tile(props) {
  const { t, onClick, label } = props;
  const back = t === null || t === undefined;
  const name = tileName(back ? null : t);
  const cls = ["tile", props.size || "", back ? "back" : "", props.wild ? "wild" : "",
    props.ind ? "ind" : "", props.selected ? "selected" : "", props.pending ? "pending" : "",
    props.dim ? "dim" : "", props.rot ? "rot" : "", props.last ? "last" : "",
    props.win ? "win" : "", props.cls || ""].filter(Boolean).join(" ");
  const src = `/static/tiles/${back ? "back" : mpsz(t)}.svg`;
  const badge = props.wild ? html`<span class="badge" aria-hidden="true">${props.wildMark || "赖"}</span>` : null;
  if (onClick) {
    return html`<button type="button" class=${cls} data-tile=${back ? null : t}
      data-reason=${props.reason || null} aria-disabled=${props.unavailable ? "true" : null}
      aria-label=${label || name} title=${label || name} onClick=${onClick}
      disabled=${props.disabled}><img src=${src} alt="" draggable=${false} />${badge}</button>`;
  }
  return html`<span class=${cls} data-tile=${back ? null : t}
    ><img src=${src} alt=${name} aria-label=${name} title=${name} draggable=${false} />${badge}</span>`;
}

export function Tiles({ ts, size, wild, last }) {
  return html`<span class="tiles">${ts.map((t, i) => html`<${Tile} key=${i} t=${t} size=${size}
    wild=${wild !== null && wild !== undefined && t === wild}
    last=${last && i === ts.length - 1} />`)}</span>`;
}
