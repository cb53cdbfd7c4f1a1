// The banners above the table: the connection, spectating, a waiting person's place in
// the queue and their horse (晃晃), 托管 with "I'm back", paused, idle, not started, over,
// the dismiss vote.
import { html } from "htm/preact";
import { t } from "./i18n.js";
import { useStore } from "./store.js";
import { parseTiles, Tile } from "./tiles.js";
import { displayName, queueLine } from "./words.js";
import { ClientOp } from "./protocol.js";
import { descriptor } from "./variants.js";

// A waiting person's banner (晃晃): their place in the queue, 买马 and their last horse.
function WaitingBanner({ send }) {
  const frame = useStore((s) => s.frame);
  const myName = useStore((s) => s.myName);
  const records = useStore((s) => s.records);
  const table = frame.view.table;
  const room = frame.room;
  const lastRecord = records.length ? records[records.length - 1] : null;
  const buysHorse = myName && !table.horses_off.includes(myName);
  const myHorse = lastRecord && (lastRecord.end.horses || []).find((h) => h.person === myName);
  return html`<div class="banner info waitseat" role="status" data-testid="waiting-banner">
    <strong data-testid="queue-place">${queueLine(table.waiting, myName)}</strong>
    ${descriptor(table.variant)?.horses ? html`<span class="horse-state">${buysHorse ? t("horse_on") : t("horse_off")}
      ${myHorse ? html` · ${t("your_horse")} <${Tile} t=${parseTiles(myHorse.tile)[0]} size="tiny" />${myHorse.seat !== undefined
        ? ` ${t("horse_landed", { seat: displayName(lastRecord.seats[myHorse.seat]) })}` : ""}` : buysHorse ? html` · <span class="muted-light">${t("no_horse_yet")}</span>` : ""}</span>
      ${!room.in_hand ? html`<button type="button" data-testid="horse-toggle" onClick=${() => send(ClientOp.HORSE, { buy: !buysHorse })}>${buysHorse ? t("horse_stop") : t("horse_change")}</button>` : ""}` : ""}
  </div>`;
}

/** @param {{code: string, send: (op: any, fields?: any) => any}} props */
export function Banners({ code, send }) {
  const frame = useStore((s) => s.frame);
  const status = useStore((s) => s.status);
  const me = useStore((s) => s.me);
  const myName = useStore((s) => s.myName);
  const mySeat = useStore((s) => s.mySeat);
  const table = frame.view.table;
  const room = frame.room;
  // The room's frames say who the host is now (the role can be handed over).
  const host = !!myName && room.host === myName;
  const spectator = me ? me.role === "spectator" : mySeat === null;
  const waitingMe = myName && table.waiting.includes(myName) && !room.over;
  const autoMe = myName && room.auto.includes(myName);
  const seated = myName && table.seats.includes(myName);
  return html`<div class="banners">
    ${status !== "open" ? html`<div class="banner warn" role="status">${t(status === "reconnecting" ? "reconnecting" : "connecting")}</div>` : ""}
    ${spectator ? html`<div class="banner info">${t("spectating")}</div>` : ""}
    ${waitingMe ? html`<${WaitingBanner} send=${send} />` : ""}
    ${autoMe ? html`<div class="banner auto" role="alert">${t("auto")} <button type="button" class="primary" data-testid="back" onClick=${() => send(ClientOp.BACK)}>${t("im_back")}</button></div>` : ""}
    ${room.paused ? html`<div class="banner warn">${t("paused")}</div>` : ""}
    ${room.idle && !room.paused && !room.over ? html`<div class="banner warn" role="status" data-testid="idle-banner">${t("idle")}</div>` : ""}
    ${!room.started && !room.over ? html`<div class="banner info">${host ? t("not_started_host") : t("not_started")}
      ${host ? html` <button type="button" class="primary" data-testid="start" onClick=${() => send(ClientOp.START)}>${t("start")}</button>` : ""}</div>` : ""}
    ${room.over ? html`<div class="banner info">${t("match_over")} · <a href=${`/replay/${code}`}>${t("replay")}</a></div>` : ""}
    ${room.vote ? html`<div class="banner warn">${t("dismiss_vote", { agree: room.vote.agree.map(displayName).join(", ") || "—", s: Math.round(room.vote.seconds) })}
      ${seated && !room.vote.agree.includes(myName) ? html` <button type="button" onClick=${() => send(ClientOp.DISMISS, { agree: true })}>${t("agree")}</button>
        <button type="button" onClick=${() => send(ClientOp.DISMISS, { agree: false })}>${t("refuse")}</button>` : ""}</div>` : ""}
  </div>`;
}
