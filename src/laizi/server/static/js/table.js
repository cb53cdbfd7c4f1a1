// A room's table: /r/CODE (?t=TOKEN gives the seat; the token is then kept in
// localStorage, so a reload or another tab comes back to the same seat).
//
// Everything shown comes from the server's `state` frames (docs/hall.md), folded by the
// store (store.js) that every part of the page reads; each frame's events go on to the
// event bus (bus.js), where sound (sound.js) and motion (motion.js) listen. A move is sent
// with the version it answers and is shown only when the server's next frame shows it.
//
// This module is the composition: the connection, the records, the board, and where each
// part sits (Table below). A new part gets its own module reading the store with
// useStore, and one line in Table (the dock takes `extra`, shown above the hand).
import { html } from "htm/preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { t, variantName } from "./i18n.js";
import { api, ensurePerson, forgetRoom, myRooms, rememberRoom, getName, setName } from "./api.js";
import { Conn } from "./conn.js";
import { Board } from "./board.js";
import { LedgerTable } from "./settle.js";
import { parseTiles } from "./tiles.js";
import { TopBar, useToast } from "./ui.js";
import { displayName, errorText, prevalentWind } from "./words.js";
import { ClientOp, ErrorCode, Outcome, ServerOp } from "./protocol.js";
import { descriptor } from "./variants.js";
import { endsHand, store, useStore } from "./store.js";
import { Banners } from "./banners.js";
import { Dock } from "./hand.js";
import { setHintAsk } from "./hints.js";
import { useKeys } from "./actions.js";
import { Feed } from "./feed.js";
import { RoomPanel, WaitingRoom } from "./room.js";
import { SettlementHolder, peopleOf } from "./holder.js";
import { startSound } from "./sound.js";
import { SoundControl } from "./soundctl.js";
import { startMotion } from "./motion.js";
import { Phrases } from "./phrases.js";
import { useTurnNotice, useWakeLock } from "./device.js";

/** @typedef {import("./protocol.js").ActionJSON} ActionJSON */

function takeToken(code) {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get("t");
  if (fromUrl) {
    rememberRoom(code, { token: fromUrl });
    params.delete("t");
    const rest = params.toString();
    history.replaceState(null, "", `/r/${encodeURIComponent(code)}${rest ? `?${rest}` : ""}`);
    return fromUrl;
  }
  const mine = myRooms()[code];
  return mine && mine.token ? mine.token : null;
}

// The join form of a room opened without a seat token.
function JoinHere({ code, onJoined }) {
  const [name, setN] = useState(getName());
  const [info, setInfo] = useState(null);
  const [toast, show] = useToast();
  useEffect(() => { api(`/api/rooms/${encodeURIComponent(code)}`).then(setInfo).catch((e) => show(errorText(e))); }, [code]);
  const locked = !!(info && info.locked);  // the host locked the room: nobody new joins
  const strangers = !!(info && info.may_join === false);  // a club's room: its members only
  async function go(role) {
    if (!name.trim()) { show(t("name_needed")); return; }
    try {
      setName(name.trim());
      // the seat is this device's person's (made now on a first visit); a guest if that fails
      await ensurePerson(name.trim()).catch(() => null);
      const r = await api(`/api/rooms/${encodeURIComponent(code)}/join`, { method: "POST", body: { name: name.trim(), role } });
      rememberRoom(r.code, { token: r.token, name: name.trim(), role: r.role, variant: info && info.settings.variant });
      onJoined(r.token);
    } catch (e) { show(errorText(e)); }
  }
  return html`<div class="page">
    <${TopBar} title=${`${t("room")} ${code}`} />
    <main class="cards"><section class="card">
      <h2>${t("join_this")}</h2>
      ${info ? html`<p>${variantName(info.settings.variant)} · ${info.seats.map(displayName).join(" · ")}</p>` : ""}
      ${locked ? html`<p class="note-warn" role="status" data-testid="join-locked">🔒 ${t("err_room_locked")}</p>` : ""}
      ${strangers ? html`<p class="note-warn" role="status" data-testid="join-members-only">${t("err_members_only")}</p>` : ""}
      <label for="player-name">${t("your_name")}<input id="player-name" name="player-name" maxlength="24" value=${name} onInput=${(e) => setN(e.currentTarget.value)} /></label>
      <div class="row buttons">
        <button class="primary" type="button" disabled=${locked || strangers} onClick=${() => go("player")}>${t("as_player")}</button>
        <button type="button" disabled=${locked || strangers} onClick=${() => go("spectator")}>${t("as_spectator")}</button>
      </div>
    </section></main>${toast}
  </div>`;
}


export function TablePage({ code }) {
  const [token, setToken] = useState(() => takeToken(code));
  if (!token) return html`<${JoinHere} code=${code} onJoined=${setToken} />`;
  return html`<${Table} code=${code} token=${token} />`;
}

// The connection, `me` and the records folded into the store; the senses listening on the
// bus while the table is open. Returns how to send: send(op, fields, key) and act(action).
function useTable(code, token, show) {
  const [ctl] = useState(() => ({ conn: null, send: null, act: null }));
  useEffect(() => {
    store.reset();
    const senses = [startSound(), startMotion()];
    const loadRecords = () => api(`/api/rooms/${encodeURIComponent(code)}/records`)
      .then((r) => store.set({ records: r.hands, loaded: true })).catch(() => {});
    api(`/api/rooms/${encodeURIComponent(code)}/me`, { token }).then((m) => {
      store.set({ me: m });
      rememberRoom(code, { token, name: m.name, role: m.role });
    }).catch(() => {});
    loadRecords();
    const c = new Conn(code, token, {
      onFrame: (f, live) => {
        store.fold(f, live);
        if (endsHand(f)) loadRecords();
      },
      onHints: (f) => {
        const now = store.getState().frame;
        store.set({ hintGot: { version: f.version, hints: f.hints, hand: now && now.version === f.version ? now.view.hand : null } });
      },
      onPhrase: (f) => store.phrase(f),
      onStatus: (s, err) => {
        // Removed by the host: this browser's seat token for the room is dead for good.
        if (s === "gone" && err && err.code === ErrorCode.KICKED) forgetRoom(code);
        store.set(s === "gone" ? { status: s, gone: err || { code: ErrorCode.UNKNOWN_TOKEN } } : { status: s });
      },
    });
    ctl.conn = c;
    setHintAsk((version, tile) => c.send(ClientOp.HINT_WAITS, { version, tile }));
    return () => { setHintAsk(null); c.close(); senses.forEach((off) => off()); };
  }, [code, token]);
  ctl.send = async (op, fields, key) => {
    if (!ctl.conn) return null;
    if (key) store.set({ pending: key });
    const ans = await ctl.conn.send(op, fields);
    if (key) store.set({ pending: null });
    if (ans.op === ServerOp.ERROR && ans.error.code !== ErrorCode.STALE_VERSION) show(errorText(ans.error));
    return ans;
  };
  ctl.act = (a) => {
    const s = store.getState();
    if (s.pending || !s.frame) return;
    ctl.send(ClientOp.ACT, { action: a, version: s.frame.version }, JSON.stringify(a));
  };
  return ctl;
}

// The board as this person sees it: their own hand, every hand once the end reveals them,
// who sits where, scores, who is online or on 托管.
function useBoard() {
  const frame = useStore((s) => s.frame);
  const names = useStore((s) => s.handNames);
  const mySeat = useStore((s) => s.mySeat);
  const inHand = useStore((s) => s.inHand);
  const variant = frame && frame.view.variant;
  return useMemo(() => {
    if (!frame || !inHand) return null;
    const { view, room } = frame;
    const n = view.seats;
    const hands = Array.from({ length: n }, (_, s) => (s === mySeat ? view.hand : null));
    const rec = view.result && view.result.record;
    if (rec) {  // the hand is over: the end event reveals every hand
      rec.seats.forEach((seat, s) => {
        if (seat.concealed === undefined) return;
        const ts = parseTiles(seat.concealed);
        if (rec.outcome === Outcome.WIN && rec.winners.includes(s) && rec.tile !== undefined) ts.push(...parseTiles(rec.tile));
        hands[s] = ts;
      });
    }
    const drawn = Array.from({ length: n }, (_, s) => (s === mySeat ? view.drawn : null));
    const online = new Set(room.online);
    const auto = new Set(room.auto);
    const prevalent = prevalentWind(descriptor(view.variant), view.extra, view.options);
    return { ...view, n, me: mySeat, names, hands, drawn, prevalent,
      scores: names.map((p) => room.ledger[p]),
      status: names.map((p) => ({ online: !p || p.startsWith("🤖") ? true : online.has(p), auto: auto.has(p) })),
      winners: rec && rec.outcome === Outcome.WIN ? rec.winners : [] };
  }, [frame, names, mySeat, inHand, descriptor(variant)]);
}

function Table({ code, token }) {
  const [toast, show] = useToast();
  const ctl = useTable(code, token, show);
  useKeys(ctl.act);
  const frame = useStore((s) => s.frame);
  const status = useStore((s) => s.status);
  const gone = useStore((s) => s.gone);
  const records = useStore((s) => s.records);
  const shown = useStore((s) => s.shown);
  const between = useStore((s) => s.between);
  const myName = useStore((s) => s.myName);
  const me = useStore((s) => s.me);
  const mySeat = useStore((s) => s.mySeat);
  const inHand = useStore((s) => s.inHand);
  const handNames = useStore((s) => s.handNames);
  const myTurn = useStore((s) => s.myTurn);
  const windowOpen = useStore((s) => s.windowOpen);
  const roomNow = frame ? frame.room : null;
  useWakeLock(!!(roomNow && roomNow.in_hand && !roomNow.over));
  useTurnNotice({ turn: myTurn || windowOpen, started: roomNow ? roomNow.started : null, code });
  const [tab, setTab] = useState("log");
  const board = useBoard();
  useEffect(() => {
    if (frame) document.title = `${t("room")} ${code} · ${variantName(frame.view.table.variant)}`;
  });

  if (gone) {
    return html`<div class="page"><${TopBar} title=${`${t("room")} ${code}`} />
      <main class="cards"><section class="card" data-testid="gone">${gone.code === ErrorCode.KICKED
        ? html`<h2>${t("kicked_title")}</h2><p data-testid="kicked">${t("kicked_page")}</p>`
        : html`<p>${t("gone", { msg: errorText(gone) })}</p>`}<a href="/">${t("back_lobby")}</a></section></main></div>`;
  }
  if (!frame) {
    return html`<div class="page"><${TopBar} title=${`${t("room")} ${code}`}><${SoundControl} /></${TopBar}><p class="loading">${t(status === "reconnecting" ? "reconnecting" : "connecting")}</p></div>`;
  }
  const { view, room } = frame;
  const table = view.table;
  const variant = table.variant;
  const seated = myName && table.seats.includes(myName);
  const lastRecord = records.length ? records[records.length - 1] : null;
  const docked = mySeat !== null && inHand;
  const ledgerRows = records.map((r) => ({ number: r.number, label: t("hand_no", { n: r.number + 1 }), values: r.end.net }));
  // A settlement stays open until its reader closes it, the next hand going on behind it:
  // while they have something to do (a turn, a claim, 胡) the dock (hand, buttons, clock)
  // comes above it, so nobody misses a turn or a claim for reading.
  const acting = shown !== null && records.some((r) => r.number === shown) && docked && frame.legal.length > 0;
  return html`<div class=${`page table-page ${acting ? "acting" : ""}`} data-phase=${view.phase} data-version=${frame.version}>
    <${TopBar} title=${html`<span class="title-variant" data-testid="room-variant">${variantName(variant)}</span>
      <span class="title-room">${t("room")} <span data-testid="room-code">${code}</span>${table.hands ? html` · <span data-testid="hand-number">${t("hand_no", { n: table.hands })}</span>` : ""}</span>`}>
      <${SoundControl} />
      <${Phrases} send=${(op, fields) => (ctl.conn ? ctl.conn.send(op, fields) : Promise.resolve(null))} names=${handNames} me=${myName} />
    </${TopBar}>
    <${Banners} code=${code} send=${ctl.send} />
    <div class="table-layout">
      <main class="felt">
        ${board ? html`<${Board} b=${board} dock=${docked} />` : html`<${WaitingRoom} table=${table} room=${room} code=${code} />`}
        ${docked ? html`<${Dock} act=${ctl.act} scores=${board ? board.scores : undefined} />` : ""}
        ${between ? html`<div class="between">
          ${lastRecord ? html`<button type="button" onClick=${() => store.set({ shown: lastRecord.number })}>${t("settlement")}</button>` : ""}
          ${seated ? html`<button type="button" class="primary" data-testid="ready" disabled=${room.ready.includes(myName)} onClick=${() => ctl.send(ClientOp.READY)}>${room.ready.includes(myName) ? t("ready_done") : t("next_hand")}</button>` : ""}
        </div>` : ""}
      </main>
      <aside class="side">
        <nav class="tabs" role="tablist">
          ${["log", "ledger", "room"].map((k) => html`<button type="button" role="tab" aria-selected=${tab === k} class=${tab === k ? "on" : ""} onClick=${() => setTab(k)}>${t(k)}</button>`)}
        </nav>
        ${tab === "log" ? html`<${Feed} />` : ""}
        ${tab === "ledger" ? html`<${LedgerTable} people=${peopleOf(frame)} rows=${ledgerRows} totals=${room.ledger} onRow=${(r) => store.set({ shown: r.number })} />` : ""}
        ${tab === "room" ? html`<${RoomPanel} code=${code} token=${token} room=${room} table=${table} me=${me} myName=${myName}
            host=${!!myName && room.host === myName} seated=${seated} send=${ctl.send} />` : ""}
      </aside>
    </div>
    <${SettlementHolder} code=${code} send=${ctl.send} acting=${acting} />
    ${toast}
  </div>`;
}
