// The settlement holder: a hand that ends opens its settlement (on arrival, the last
// hand's if the table is between hands); it stays until its reader closes it, the next
// hand going on behind it. Any earlier hand's opens from the ledger (store `shown`).
import { html } from "htm/preact";
import { useEffect, useRef } from "preact/hooks";
import { t } from "./i18n.js";
import { LedgerTable, Settlement } from "./settle.js";
import { store, useStore } from "./store.js";
import { Modal } from "./ui.js";
import { ClientOp } from "./protocol.js";

// Everybody of the room's ledger, the seated first.
export function peopleOf(frame) {
  const table = frame.view.table;
  return [...new Set([...table.seats.filter(Boolean), ...table.waiting, ...Object.keys(frame.room.ledger)])];
}

// Opens the settlement of each hand that ends (and, on arrival between hands, the last).
function useOpener() {
  const records = useStore((s) => s.records);
  const loaded = useStore((s) => s.loaded);
  const arrived = useStore((s) => s.frame !== null);
  const seenEnd = useRef(null);
  useEffect(() => {
    const frame = store.getState().frame;
    if (!loaded || !frame) return;
    const last = records.length ? records[records.length - 1].number : -1;
    if (seenEnd.current === null) {
      seenEnd.current = last;
      if (last >= 0 && !frame.room.in_hand && last === frame.view.table.hands - 1) store.set({ shown: last });
    } else if (last > seenEnd.current) {
      seenEnd.current = last;
      store.set({ shown: last });
    }
  }, [records, loaded, arrived]);
}

// acting: the person has something to do while it is open, so the dock comes above it
// (the modal is then not blocking).
/** @param {{code: string, send: (op: any, fields?: any) => any, acting: boolean}} props */
export function SettlementHolder({ code, send, acting }) {
  useOpener();
  const shown = useStore((s) => s.shown);
  const records = useStore((s) => s.records);
  const frame = useStore((s) => s.frame);
  const between = useStore((s) => s.between);
  const myName = useStore((s) => s.myName);
  const room = frame.room;
  const seated = myName && frame.view.table.seats.includes(myName);
  const lastRecord = records.length ? records[records.length - 1] : null;
  const rec = shown === null ? null : records.find((r) => r.number === shown) || null;
  const close = () => store.set({ shown: null });
  return html`<${Modal} open=${rec !== null} title=${`${t("settlement")} · ${t("hand_no", { n: rec ? rec.number + 1 : 0 })}`}
      onClose=${close} testid="settlement" blocking=${!acting}>
    ${rec ? html`<div data-hand=${rec.number}><${Settlement} end=${rec.end} names=${rec.seats} me=${myName} />
      <${LedgerTable} people=${peopleOf(frame)} rows=${[]} totals=${rec.end.ledger} />
      <div class="row buttons">
        ${seated && between && rec === lastRecord ? html`<button type="button" class="primary" data-testid="ready-modal" disabled=${room.ready.includes(myName)}
          onClick=${() => { send(ClientOp.READY); close(); }}>${room.ready.includes(myName) ? t("ready_done") : t("next_hand")}</button>` : ""}
        <a class="button" data-testid="hand-replay" href=${`/replay/${code}?hand=${rec.number}`}>${t("replay_hand")}</a>
        <button type="button" data-testid="settlement-close" onClick=${close}>${t("close")}</button>
      </div></div>` : ""}
  </${Modal}>`;
}
