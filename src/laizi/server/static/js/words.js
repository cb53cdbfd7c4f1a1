// How the client names actions, melds, seats and events (the terminal's wording,
// laizi.ui.terminal, in Chinese or English).
import { t, getLang, pick, zh } from "./i18n.js";
import { formatTiles, shortName, tileName, RED } from "./tiles.js";
import { ActionType, GameEventType, MeldKind, Outcome, Phase, TableEventType } from "./protocol.js";
import { descriptor } from "./variants.js";

// The variant's words for its indicator and wildcard, and the mark on a wildcard tile
// (赖子皮 / 赖子 / 赖, 癞子皮 / 癞子 / 癞, 翻牌 / 黄金牌 / 金): its descriptor's.
/** @param {string} variant */
export function indicatorWord(variant) {
  const w = descriptor(variant)?.wildcard;
  return w ? pick(w.indicator) : t("indicator");
}
/** @param {string} variant */
export function wildcardWord(variant) {
  const w = descriptor(variant)?.wildcard;
  return w ? pick(w.word) : t("wildcard");
}
/** @param {string} variant */
export function wildMark(variant) {
  return zh(descriptor(variant)?.wildcard?.mark ?? "赖");
}

const WIND_INDEX = { E: 0, S: 1, W: 2, N: 3 };

// The prevalent wind (圈风, 0-3) shown in the middle of the board, from where the
// variant's descriptor says it lives: the view's `extra` (Taiwan's 圈) or an option.
/**
 * @param {import("./variants.js").Descriptor | null} d
 * @param {Record<string, any> | undefined | null} extra
 * @param {Record<string, any> | undefined | null} options
 * @returns {number | null}
 */
export function prevalentWind(d, extra, options) {
  if (d && d.prevalent_wind === "extra" && extra) return extra.prevalent_wind;
  if (d && d.prevalent_wind === "option" && options) return WIND_INDEX[options.prevalent_wind] ?? null;
  return null;
}

// The words of melds and actions are the variant's, from its descriptor (`melds`,
// `actions` and `forms`: the server's); until the descriptors have loaded, the bare kind.
/** @param {string} kind @param {string} variant */
export function meldWord(kind, variant) {
  const w = descriptor(variant)?.melds[kind];
  return w ? pick(w) : kind;
}

// The action's verb (no tile): 碰, 暗杠, 红中杠 …; its form in context first — the phase
// (自摸 on one's own turn, 天听 in a decide window) or the kind of meld a special kong
// makes (the wildcard's 赖子杠, 红中杠).
export function actionVerb(a, wildcard, phase, variant) {
  const d = descriptor(variant);
  if (!d) return a.type;
  const context = a.type !== ActionType.SPECIAL_KONG ? phase
    : a.tile === wildcard ? MeldKind.LAIZI_KONG : a.tile === RED ? MeldKind.RED_DRAGON_KONG : "";
  const w = d.forms[a.type]?.[context] ?? d.actions[a.type];
  return w ? pick(w) : a.type;
}

export function actionLabel(a, wildcard, phase, variant) {
  const verb = actionVerb(a, wildcard, phase, variant);
  if (a.type === ActionType.CHOW && a.tiles && a.tiles.length) {
    return `${verb} ${getLang() === "zh" ? a.tiles.map(shortName).join("") : formatTiles(a.tiles)}`;
  }
  if (a.tile !== null && a.tile !== undefined && a.type !== ActionType.PASS) {
    return `${verb} ${tileName(a.tile)}`;
  }
  return verb;
}

// The seat wind of `seat` (the dealer is East), as a word.
export function seatWind(seat, dealer, n, long = false) {
  const w = (seat - dealer + n) % n;
  return (long ? t("winds_long") : t("winds"))[w];
}

// Where a meld came from, seen from its owner: 上家 / 对家 / 下家.
export function relative(owner, from, n) {
  const d = (from - owner + n) % n;
  if (d === 1) return t("rel_next");
  if (d === n - 1) return t("rel_prev");
  return t("rel_across");
}

// The person of a hand's seat (0-based, as the server counts): their name, else the seat
// counted from 1 ("1号位"), never the server's 0-based number.
export function seatName(seat, names) {
  const name = names ? names[seat] : undefined;
  return name === undefined || name === null || name === "" ? t("seat_n", { n: seat + 1 }) : displayName(name);
}

export function displayName(name) {
  if (name === null || name === undefined || name === "") return "—";
  if (typeof name !== "string") return String(name);
  if (name.startsWith("🤖 ")) return getLang() === "zh" ? zh(`电脑${name.slice(3)}`) : `Bot ${name.slice(3)}`;
  return name;
}

// Where a waiting person stands (晃晃): their place in the room's queue (`waiting`, front
// first, as the server sends it) and when they sit — the front of the queue takes the
// seat of whoever 下桌, the others follow in queue order (docs/rules/huanghuang.md). How
// many leave depends on how the hand ends; that stays the server's to decide.
export function queueLine(waiting, person) {
  const i = (waiting || []).indexOf(person);
  if (i < 0) return null;
  return i === 0 ? t("queue_front") : t("queue_place", { n: i + 1, ahead: i });
}

// One line of the log for an event as this person sees it (null: nothing to say).
// `names[seat]` are the people of the hand; `me` the person's seat (or null).
export function eventLine(ev, names, me, wildcard, variant) {
  const who = (s) => (s === me ? t("you") : displayName(names[s]));
  switch (ev.type) {
    case GameEventType.ACTION: {
      const a = ev.action;
      // A 胡 or a 错和 (wrong_win, never offered to people) is said by the end event.
      if (a.type === ActionType.PASS || a.type === ActionType.WIN || a.type === ActionType.WRONG_WIN) return null;
      if (a.type === ActionType.DISCARD) return t("ev_discard", { who: who(a.seat), tile: tileName(a.tile) });
      if ([ActionType.CHOW, ActionType.PUNG, ActionType.KONG].includes(a.type)) return null; // the claim event says it
      return t("ev_action", { who: who(a.seat), act: actionLabel(a, wildcard, Phase.TURN, variant) });
    }
    case GameEventType.DRAW:
      if (ev.tile === null || ev.tile === undefined) return null;
      return t(ev.replacement ? "ev_replacement" : "ev_draw", { who: who(ev.seat), tile: tileName(ev.tile) });
    case GameEventType.CLAIM:
      return t("ev_claim", { who: who(ev.seat), kind: meldWord(ev.meld.kind, variant),
        tiles: getLang() === "zh" ? ev.meld.tiles.map(shortName).join("") : formatTiles(ev.meld.tiles) });
    case GameEventType.FLOWER:
      return t("ev_flower", { who: who(ev.seat), tile: tileName(ev.tile) });
    case GameEventType.INDICATOR:
      return t("ev_indicator", { tile: ev.tiles.map(tileName).join(" "),
        name: wildcardWord(variant), wild: ev.wildcard === null ? "—" : tileName(ev.wildcard) });
    case GameEventType.REVEALED:
      return (ev.actions || []).map((a) => t("ev_declare", { who: who(a.seat), kind: actionVerb(a, wildcard, Phase.DECIDE, variant) })).join("; ") || null;
    case GameEventType.END: {
      const r = ev.record;
      if (r.outcome === Outcome.WRONG_WIN) return t("ev_wrong_win_end", { who: who(r.from) });
      if (r.outcome !== Outcome.WIN) return t("ev_draw_end");
      return t("ev_win", { who: r.winners.map(who).join(", ") });
    }
    case TableEventType.HAND:
      return t("ev_hand", { n: ev.number + 1, dealer: displayName(ev.seats[ev.dealer]) });
    case TableEventType.JOIN:
      return t("ev_join", { who: displayName(ev.person) });
    case TableEventType.LEAVE:
      return t("ev_leave", { who: displayName(ev.person) });
    case TableEventType.CLOSE:
      return t("ev_close");
    default:
      return null;
  }
}

export function errorText(err) {
  if (!err) return "";
  const k = `err_${err.code}`;
  const s = t(k, { msg: err.message });
  return s === k ? err.message || err.code : s;
}
