// A room's table: /r/CODE (?t=TOKEN gives the seat; the token is then kept in
// localStorage, so a reload or another tab comes back to the same seat).
//
// Everything shown comes from the server's `state` frames (docs/hall.md): the view, the
// legal actions, the clock, the room. A move is sent with the version it answers and is
// shown only when the server's next frame shows it (never applied here first).
import { html } from "htm/preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { getLang, t, variantName } from "./i18n.js";
import { api, myRooms, rememberRoom, getName, setName } from "./api.js";
import { Conn } from "./conn.js";
import { Board, Meld } from "./board.js";
import { LedgerTable, Settlement } from "./settle.js";
import { parseTiles, Tile, tileName } from "./tiles.js";
import { Modal, TopBar, copyText, useToast } from "./ui.js";
import { actionLabel, actionVerb, displayName, errorText, eventLine, prevalentWind, queueLine, seatWind, wildMark, wildcardWord } from "./words.js";
import { ActionType, ClientOp, ErrorCode, GameEventType, Outcome, Phase, ServerOp, TableEventType } from "./protocol.js";
import { descriptor } from "./variants.js";
import { AppSettings, useTurnNotice, useWakeLock } from "./device.js";

/** @typedef {import("./protocol.js").ActionJSON} ActionJSON */
/** @typedef {import("./protocol.js").StateFrame} StateFrame */

const WINDOWS = [Phase.CLAIM, Phase.ROB, Phase.DECIDE];
/** @type {Record<string, string>} */
const LETTER = { [ActionType.WIN]: "h", [ActionType.PUNG]: "p", [ActionType.KONG]: "k",
  [ActionType.CONCEALED_KONG]: "k", [ActionType.ADDED_KONG]: "k", [ActionType.SPECIAL_KONG]: "k",
  [ActionType.CHOW]: "c", [ActionType.PASS]: " ", [ActionType.DECLARE]: "t",
  [ActionType.FLOWER_WIN]: "f", [ActionType.ROB_FLOWER]: "f" };

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

// Renders again every `ms` while `active` (a running clock). The time left is read from
// performance.now() at render time, never from a tick kept in state: a tick is stale when
// a prompt arrives after a while without one (the countdown showed 22 on a 20 s clock).
function useTicking(active, ms = 200) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const id = setInterval(() => setTick((x) => x + 1), ms);
    return () => clearInterval(id);
  }, [active, ms]);
}

// Seconds left on the clock (null: none), never more than the room's clock.
function secondsLeft(endAt, clock) {
  if (endAt === null) return null;
  const left = Math.max(0, (endAt - performance.now()) / 1000);
  return typeof clock === "number" && clock > 0 ? Math.min(clock, left) : left;
}

// The join form of a room opened without a seat token.
function JoinHere({ code, onJoined }) {
  const [name, setN] = useState(getName());
  const [info, setInfo] = useState(null);
  const [toast, show] = useToast();
  useEffect(() => { api(`/api/rooms/${encodeURIComponent(code)}`).then(setInfo).catch((e) => show(errorText(e))); }, [code]);
  async function go(role) {
    if (!name.trim()) { show(t("name_needed")); return; }
    try {
      setName(name.trim());
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
      <label for="player-name">${t("your_name")}<input id="player-name" name="player-name" maxlength="24" value=${name} onInput=${(e) => setN(e.currentTarget.value)} /></label>
      <div class="row buttons">
        <button class="primary" type="button" onClick=${() => go("player")}>${t("as_player")}</button>
        <button type="button" onClick=${() => go("spectator")}>${t("as_spectator")}</button>
      </div>
    </section></main>${toast}
  </div>`;
}

export function TablePage({ code }) {
  const [token, setToken] = useState(() => takeToken(code));
  if (!token) return html`<${JoinHere} code=${code} onJoined=${setToken} />`;
  return html`<${Table} code=${code} token=${token} />`;
}

function Table({ code, token }) {
  const [frame, setFrame] = useState(null);
  const [status, setStatus] = useState("connecting");
  const [gone, setGone] = useState(null);
  const [me, setMe] = useState(null);
  const [records, setRecords] = useState([]);
  const [feed, setFeed] = useState([]);
  const [pending, setPending] = useState(null);
  const [sel, setSel] = useState(null);
  const [tab, setTab] = useState("log");
  const [hint, setHint] = useState("");
  const hintTimer = useRef(null);
  // The hand whose settlement is open: it stays until its reader closes it (the next hand
  // may start behind it); any earlier hand's opens from the ledger.
  const [shown, setShown] = useState(null);
  const [loaded, setLoaded] = useState(false);
  const seenEnd = useRef(null);
  const [toast, show] = useToast();
  const conn = useRef(null);
  const endAt = useRef(null);
  const dockRef = useRef(null);
  const lang = getLang();

  const loadRecords = () => api(`/api/rooms/${encodeURIComponent(code)}/records`).then((r) => { setRecords(r.hands); setLoaded(true); }).catch(() => {});

  useEffect(() => {
    api(`/api/rooms/${encodeURIComponent(code)}/me`, { token }).then((m) => {
      setMe(m);
      rememberRoom(code, { token, name: m.name, role: m.role });
    }).catch(() => {});
    loadRecords();
    const c = new Conn(code, token, {
      onFrame: (f) => {
        if (f.deadline !== null && f.deadline !== undefined) endAt.current = performance.now() + f.deadline * 1000;
        else endAt.current = null;
        setFrame(f);
        setFeed((old) => {
          const base = f.snapshot ? [] : old;
          return [...base, ...f.events].slice(-300);
        });
        if (f.events.some((e) => e.type === TableEventType.HAND_END || e.type === TableEventType.CLOSE) || f.snapshot) loadRecords();
      },
      onStatus: (s, err) => { setStatus(s); if (s === "gone") setGone(err || { code: ErrorCode.UNKNOWN_TOKEN }); },
    });
    conn.current = c;
    return () => c.close();
  }, [code, token]);

  // A hand that ends opens its settlement; on arrival, the last hand's if it is between hands.
  useEffect(() => {
    if (!loaded || !frame) return;
    const last = records.length ? records[records.length - 1].number : -1;
    if (seenEnd.current === null) {
      seenEnd.current = last;
      if (last >= 0 && !frame.room.in_hand && last === frame.view.table.hands - 1) setShown(last);
    } else if (last > seenEnd.current) {
      seenEnd.current = last;
      setShown(last);
    }
  }, [records, loaded, frame !== null]);

  const view = frame && frame.view;
  const room = frame && frame.room;
  const legal = (frame && frame.legal) || [];
  const inHand = view && view.phase !== "waiting";
  const myName = me ? me.name : view && view.seat !== null && view.seat !== undefined ? view.table.seats[view.seat] : null;
  const mySeat = view && view.seat !== undefined ? view.seat : null;
  const spectator = me ? me.role === "spectator" : mySeat === null;

  // Who sat where in the hand on the board (after 下桌 the table's seats have moved on).
  const handNames = useMemo(() => {
    if (!view || !inHand) return view ? view.table.seats : [];
    if (view.phase === Phase.OVER) {
      const rec = records.find((r) => r.number === view.table.hands - 1);
      if (rec) return rec.seats;
    }
    return view.table.seats;
  }, [view, records, inHand]);

  const board = useMemo(() => {
    if (!view || !inHand) return null;
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
    return { ...view, n, me: mySeat, names: handNames, hands, drawn, prevalent,
      scores: handNames.map((p) => room.ledger[p]),
      status: handNames.map((p) => ({ online: !p || p.startsWith("🤖") ? true : online.has(p), auto: auto.has(p) })),
      winners: view.result && view.result.record.outcome === Outcome.WIN ? view.result.record.winners : [] };
  }, [view, room, handNames, mySeat, inHand, descriptor(view && view.variant)]);

  const discardable = new Map(legal.filter((a) => a.type === ActionType.DISCARD).map((a) => [a.tile, a]));
  const others = legal.filter((a) => a.type !== ActionType.DISCARD);
  const phase = view ? view.phase : null;
  const myTurn = inHand && phase === Phase.TURN && view.turn === mySeat && legal.length > 0;
  const windowOpen = inHand && WINDOWS.includes(phase) && legal.length > 0;
  useTicking(endAt.current !== null && legal.length > 0);
  useWakeLock(!!(room && room.in_hand && !room.over));
  useTurnNotice({ turn: !!(myTurn || windowOpen), started: room ? room.started : null, code });
  const left = secondsLeft(endAt.current, room && room.settings.clock);

  // The hand as shown: concealed (the drawn tile apart, at the end).
  const myTiles = useMemo(() => {
    if (!view || mySeat === null || !inHand) return { tiles: [], drawnAt: -1 };
    const hand = [...view.hand];
    const d = view.drawn;
    if (phase === Phase.TURN && view.turn === mySeat && d !== null && d !== undefined) {
      const i = hand.lastIndexOf(d);
      if (i >= 0) { hand.splice(i, 1); hand.push(d); return { tiles: hand, drawnAt: hand.length - 1 }; }
    }
    return { tiles: hand, drawnAt: -1 };
  }, [view, mySeat, inHand, phase]);

  async function send(op, fields, key) {
    if (!conn.current) return null;
    if (key) setPending(key);
    const ans = await conn.current.send(op, fields);
    if (key) setPending(null);
    if (ans.op === ServerOp.ERROR && ans.error.code !== ErrorCode.STALE_VERSION) show(errorText(ans.error));
    return ans;
  }

  function act(a) {
    if (pending || !frame) return;
    send(ClientOp.ACT, { action: a, version: frame.version }, JSON.stringify(a));
  }

  // Keyboard: ←/→ pick a tile, Enter/↑ discards it, letters and digits for the buttons.
  useEffect(() => {
    function onKey(e) {
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key.toLowerCase();
      if (myTurn && (k === "arrowleft" || k === "arrowright")) {
        const ts = myTiles.tiles;
        if (!ts.length) return;
        const cur = sel === null ? (k === "arrowleft" ? ts.length : -1) : sel;
        setSel((cur + (k === "arrowleft" ? -1 : 1) + ts.length) % ts.length);
        e.preventDefault();
        return;
      }
      if (myTurn && (k === "enter" || k === "arrowup") && sel !== null) {
        const tile = myTiles.tiles[sel];
        if (discardable.has(tile)) { act(discardable.get(tile)); e.preventDefault(); }
        return;
      }
      const keyed = buttonKeys(others);
      const hit = keyed.find(([, key]) => key === k || (k === "spacebar" && key === " "));
      if (hit) { act(hit[0]); e.preventDefault(); }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  useEffect(() => { setSel(null); }, [view && view.version]);

  // The dock's height (--dock-h): the space a settlement open over the table leaves free
  // for the dock while the person has something to do.
  useEffect(() => {
    const el = dockRef.current;
    if (!el || typeof ResizeObserver !== "function") return undefined;
    const page = el.closest(".table-page");
    const ro = new ResizeObserver(() => { if (page) page.style.setProperty("--dock-h", `${Math.ceil(el.getBoundingClientRect().height)}px`); });
    ro.observe(el);
    return () => ro.disconnect();
  });

  useEffect(() => {
    if (view) document.title = `${t("room")} ${code} · ${variantName(view.table.variant)}`;
  });

  if (gone) {
    return html`<div class="page"><${TopBar} title=${`${t("room")} ${code}`} />
      <main class="cards"><section class="card"><p>${t("gone", { msg: errorText(gone) })}</p><a href="/">${t("back_lobby")}</a></section></main></div>`;
  }
  if (!frame) {
    return html`<div class="page"><${TopBar} title=${`${t("room")} ${code}`} /><p class="loading">${t(status === "reconnecting" ? "reconnecting" : "connecting")}</p></div>`;
  }

  const table = view.table;
  const variant = table.variant;
  const host = me ? me.host : false;
  const lastRecord = records.length ? records[records.length - 1] : null;
  const between = room.started && !room.over && !room.in_hand && table.hands > 0;
  const shownRecord = shown === null ? null : records.find((r) => r.number === shown) || null;
  const autoMe = myName && room.auto.includes(myName);
  const seated = myName && table.seats.includes(myName);
  const wild = view.wildcard;

  // A tap on a greyed-out tile says why it cannot be discarded (its title says it too). The
  // tile is aria-disabled, not disabled: a disabled button gets no click in every browser.
  const explain = (why) => {
    setHint(why);
    clearTimeout(hintTimer.current);
    hintTimer.current = setTimeout(() => setHint(""), 4000);
  };
  const mine = mySeat !== null && inHand ? html`<div class="myhand" role="group" aria-label=${t("hand_of", { name: t("you") })}
      style=${`--n:${Math.max(myTiles.tiles.length, 14)}`}>
      ${myTiles.tiles.map((x, i) => {
        const can = myTurn && discardable.has(x) && !pending;
        const key = can ? JSON.stringify(discardable.get(x)) : null;
        const why = myTurn && !discardable.has(x) ? refusal(x, legal, view, mySeat, variant) : null;
        return html`<${Tile} key=${`${i}-${x}`} t=${x} size="big" wild=${x === wild} wildMark=${wildMark(variant)}
          cls=${i === myTiles.drawnAt ? "drawn" : ""} selected=${sel === i}
          pending=${pending !== null && pending === key} dim=${myTurn && !discardable.has(x)}
          onClick=${myTurn ? () => { if (can) act(discardable.get(x)); else if (why) explain(why); } : undefined}
          unavailable=${myTurn ? !can : undefined} reason=${why}
          label=${why || (myTurn ? `${t("a_discard")} ${tileName(x)}` : undefined)} />`;
      })}
    </div>` : null;

  const prompt = windowOpen ? promptLine(view, handNames, mySeat) : myTurn ? t("my_turn") : null;
  const waitingFor = inHand && !legal.length && phase === Phase.TURN
    ? t("waiting_for", { name: displayName(handNames[view.turn]) }) : null;

  const actionBar = html`<div class=${`actionbar ${windowOpen ? "window" : ""} ${myTurn ? "myturn" : ""}`} data-testid="actionbar">
    ${prompt ? html`<div class="prompt">
      <span>${prompt}</span>
      ${windowOpen && view.last_discard ? html`<${Tile} t=${view.last_discard.tile} size="small" last=${true} wild=${view.last_discard.tile === wild} wildMark=${wildMark(variant)} />` : ""}
      ${windowOpen && view.robbing ? html`<${Tile} t=${view.robbing.tile} size="small" last=${true} />` : ""}
    </div>` : waitingFor ? html`<div class="prompt muted">${waitingFor}</div>` : ""}
    ${left !== null && legal.length ? html`<div class="clock" role="timer" aria-label=${`${Math.ceil(left)} s`}>
      <div class="clock-bar" style=${`width:${Math.min(100, (left / Math.max(1, room.settings.clock || 1)) * 100)}%`}></div>
      <span>${Math.ceil(left)}</span></div>` : ""}
    ${others.length ? html`<div class="buttons">${buttonKeys(others).map(([a, key]) => html`<button type="button"
        key=${JSON.stringify(a)} class=${`act act-${a.type}`} data-action=${a.type}
        disabled=${pending !== null} aria-keyshortcuts=${key === " " ? "Space" : key.toUpperCase()}
        onClick=${() => act(a)}>${a.type === ActionType.CHOW ? html`${actionVerb(a, wild, phase)} ${a.tiles.map((x, i) => html`<${Tile} key=${i} t=${x} size="tiny" />`)}` : actionLabel(a, wild, phase)}
        <kbd>${key === " " ? (getLang() === "zh" ? "空格" : "Space") : key.toUpperCase()}</kbd></button>`)}</div>` : ""}
    ${view.passed_win && inHand ? html`<div class="note">${t("passed_win")}</div>` : ""}
  </div>`;
  // Your hand and your buttons, kept together at the bottom of the screen: a claim
  // prompt never covers the hand it is about.
  // Its head says who you are at this table (wind, 庄, score): your seat's own header is
  // on the board, under the dock until the page is scrolled to its end.
  const myMelds = mine ? view.melds[mySeat] || [] : [];
  const myScore = mine && board ? board.scores[mySeat] : undefined;
  const dock = mine ? html`<div class="dock" data-testid="dock" ref=${dockRef}>
    <div class="dock-head" data-testid="dock-head">
      <span class="wind" title=${seatWind(mySeat, view.dealer, view.seats, true)}>${seatWind(mySeat, view.dealer, view.seats)}</span>
      <span class="who">${displayName(handNames[mySeat])} <em>(${t("you")})</em></span>
      ${mySeat === view.dealer ? html`<span class="tag dealer" title=${t("dealer_long")}>${t("dealer")}</span>` : ""}
      ${autoMe ? html`<span class="tag auto">${t("auto_short")}</span>` : ""}
      <span class="score" data-testid="dock-score">${myScore === undefined ? "" : myScore > 0 ? `+${myScore}` : myScore}</span>
    </div>
    ${hint && myTurn ? html`<div class="hint" role="status" data-testid="tile-hint">${hint}</div>` : ""}
    <div class="dock-hand">${mine}${myMelds.length ? html`<div class="mymelds" aria-label=${t("melds")}>
      ${myMelds.map((m, i) => html`<${Meld} key=${i} m=${m} owner=${mySeat} n=${view.seats} names=${handNames} wild=${wild} size="tiny" />`)}</div>` : ""}</div>
    ${actionBar}</div>` : null;
  const waitingMe = myName && table.waiting.includes(myName) && !room.over;
  const buysHorse = myName && !table.horses_off.includes(myName);
  const myHorse = lastRecord && (lastRecord.end.horses || []).find((h) => h.person === myName);

  const peopleOrder = [...new Set([...table.seats.filter(Boolean), ...table.waiting, ...Object.keys(room.ledger)])];
  const ledgerRows = records.map((r) => ({ number: r.number, label: t("hand_no", { n: r.number + 1 }), values: r.end.net }));

  // A settlement stays open until its reader closes it, the next hand going on behind it:
  // while they have something to do (a turn, a claim, 胡) the dock (hand, buttons, clock)
  // comes above it, so nobody misses a turn or a claim for reading.
  const acting = shownRecord !== null && dock !== null && legal.length > 0;
  return html`<div class=${`page table-page ${acting ? "acting" : ""}`} data-phase=${phase} data-version=${frame.version}>
    <${TopBar} title=${html`<span class="title-variant" data-testid="room-variant">${variantName(variant)}</span>
      <span class="title-room">${t("room")} <span data-testid="room-code">${code}</span></span>`}>
      ${table.hands ? html`<span class="pill">${t("hand_no", { n: table.hands })}</span>` : ""}
    </${TopBar}>
    <div class="banners">
      ${status !== "open" ? html`<div class="banner warn" role="status">${t(status === "reconnecting" ? "reconnecting" : "connecting")}</div>` : ""}
      ${spectator ? html`<div class="banner info">${t("spectating")}</div>` : ""}
      ${waitingMe ? html`<div class="banner info waitseat" role="status" data-testid="waiting-banner">
        <strong data-testid="queue-place">${queueLine(table.waiting, myName)}</strong>
        ${descriptor(variant)?.horses ? html`<span class="horse-state">${buysHorse ? t("horse_on") : t("horse_off")}
          ${myHorse ? html` · ${t("your_horse")} <${Tile} t=${parseTiles(myHorse.tile)[0]} size="tiny" />${myHorse.seat !== undefined
            ? ` ${t("horse_landed", { seat: displayName(lastRecord.seats[myHorse.seat]) })}` : ""}` : buysHorse ? html` · <span class="muted-light">${t("no_horse_yet")}</span>` : ""}</span>
          ${!room.in_hand ? html`<button type="button" data-testid="horse-toggle" onClick=${() => send(ClientOp.HORSE, { buy: !buysHorse })}>${buysHorse ? t("horse_stop") : t("horse_change")}</button>` : ""}` : ""}
      </div>` : ""}
      ${autoMe ? html`<div class="banner auto" role="alert">${t("auto")} <button type="button" class="primary" data-testid="back" onClick=${() => send(ClientOp.BACK)}>${t("im_back")}</button></div>` : ""}
      ${room.paused ? html`<div class="banner warn">${t("paused")}</div>` : ""}
      ${room.idle && !room.paused && !room.over ? html`<div class="banner warn" role="status" data-testid="idle-banner">${t("idle")}</div>` : ""}
      ${!room.started && !room.over ? html`<div class="banner info">${host ? t("not_started_host") : t("not_started")}
        ${host ? html` <button type="button" class="primary" data-testid="start" onClick=${() => send(ClientOp.START)}>${t("start")}</button>` : ""}</div>` : ""}
      ${room.over ? html`<div class="banner info">${t("match_over")} · <a href=${`/replay/${code}`}>${t("replay")}</a></div>` : ""}
      ${room.vote ? html`<div class="banner warn">${t("dismiss_vote", { agree: room.vote.agree.map(displayName).join(", ") || "—", s: Math.round(room.vote.seconds) })}
        ${seated && !room.vote.agree.includes(myName) ? html` <button type="button" onClick=${() => send(ClientOp.DISMISS, { agree: true })}>${t("agree")}</button>
          <button type="button" onClick=${() => send(ClientOp.DISMISS, { agree: false })}>${t("refuse")}</button>` : ""}</div>` : ""}
    </div>
    <div class="table-layout">
      <main class="felt">
        ${board ? html`<${Board} b=${board} dock=${dock !== null} />` : html`<${WaitingRoom} table=${table} room=${room} code=${code} />`}
        ${dock}
        ${between ? html`<div class="between">
          ${lastRecord ? html`<button type="button" onClick=${() => setShown(lastRecord.number)}>${t("settlement")}</button>` : ""}
          ${seated ? html`<button type="button" class="primary" data-testid="ready" disabled=${room.ready.includes(myName)} onClick=${() => send(ClientOp.READY)}>${room.ready.includes(myName) ? t("ready_done") : t("next_hand")}</button>` : ""}
        </div>` : ""}
      </main>
      <aside class="side">
        <nav class="tabs" role="tablist">
          ${["log", "ledger", "room"].map((k) => html`<button type="button" role="tab" aria-selected=${tab === k} class=${tab === k ? "on" : ""} onClick=${() => setTab(k)}>${t(k)}</button>`)}
        </nav>
        ${tab === "log" ? html`<${Feed} feed=${feed} names=${handNames} me=${mySeat} wild=${wild} variant=${variant} />` : ""}
        ${tab === "ledger" ? html`<${LedgerTable} people=${peopleOrder} rows=${ledgerRows} totals=${room.ledger} onRow=${(r) => setShown(r.number)} />` : ""}
        ${tab === "room" ? html`<${RoomPanel} code=${code} token=${token} room=${room} table=${table} me=${me} myName=${myName}
            host=${host} seated=${seated} send=${send} />` : ""}
      </aside>
    </div>
    <${Modal} open=${shownRecord !== null} title=${`${t("settlement")} · ${t("hand_no", { n: shownRecord ? shownRecord.number + 1 : 0 })}`}
      onClose=${() => setShown(null)} testid="settlement" blocking=${!acting}>
      ${shownRecord ? html`<div data-hand=${shownRecord.number}><${Settlement} end=${shownRecord.end} names=${shownRecord.seats} me=${myName} />
        <${LedgerTable} people=${peopleOrder} rows=${[]} totals=${shownRecord.end.ledger} />
        <div class="row buttons">
          ${seated && between && shownRecord === lastRecord ? html`<button type="button" class="primary" data-testid="ready-modal" disabled=${room.ready.includes(myName)}
            onClick=${() => { send(ClientOp.READY); setShown(null); }}>${room.ready.includes(myName) ? t("ready_done") : t("next_hand")}</button>` : ""}
          <a class="button" data-testid="hand-replay" href=${`/replay/${code}?hand=${shownRecord.number}`}>${t("replay_hand")}</a>
          <button type="button" data-testid="settlement-close" onClick=${() => setShown(null)}>${t("close")}</button>
        </div></div>` : ""}
    </${Modal}>
    ${toast}
  </div>`;
}

// Keys for the buttons: a letter for the first of each kind (H 胡, P 碰, K 杠, C 吃,
// Space 过, T 听, F 花), then digits.
function buttonKeys(actions) {
  const used = new Set();
  let digit = 1;
  return actions.map((a) => {
    let key = LETTER[a.type];
    if (!key || used.has(key)) key = String(digit++);
    used.add(key);
    return [a, key];
  });
}

// Why a tile of your hand cannot be discarded now, from what the server sent (a legal
// special kong of that tile, a locked Taiwan hand in the view, the wildcard): the rules
// stay on the server, this only names them.
function refusal(tile, legal, view, me, variant) {
  const special = legal.find((a) => a.type === ActionType.SPECIAL_KONG && a.tile === tile);
  if (special) return t("why_special", { tile: tileName(tile), action: actionVerb(special, view.wildcard, view.phase) });
  const x = view.extra || {};
  if (x.declared && x.declared[me]) return t("why_locked");
  if (x.declaring === me) return t("why_declaring");
  if (tile === view.wildcard) return t("why_wild", { tile: tileName(tile), wild: wildcardWord(variant) });
  return t("why_other", { tile: tileName(tile) });
}

function promptLine(view, names, me) {
  if (view.phase === Phase.CLAIM && view.last_discard) {
    return t("claim_prompt", { name: view.last_discard.seat === me ? t("you") : displayName(names[view.last_discard.seat]) });
  }
  if (view.phase === Phase.ROB && view.robbing) return t("rob_prompt", { name: displayName(names[view.robbing.seat]) });
  const asking = view.extra && view.extra.asking;
  if (asking && asking.kind === "heavenly") return t("decide_heavenly");
  if (asking && asking.kind === "rob") return t("decide_rob_flower", { name: displayName(names[asking.victim]) });
  return t("decide_prompt");
}

function Feed({ feed, names, me, wild, variant }) {
  const lines = [];
  let w = wild;
  for (const ev of feed) {
    if (ev.type === GameEventType.INDICATOR) w = ev.wildcard;
    const line = eventLine(ev, names, me, w, variant);
    if (line) lines.push([ev.v, line, ev.type]);
  }
  const ref = useRef(null);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [feed.length]);
  return html`<ol class="feed" ref=${ref} aria-live="polite">${lines.slice(-120).map(([v, s, k]) => html`<li key=${v} class=${`ev-${k}`}>${s}</li>`)}</ol>`;
}

// Where friends open this hall (GET /api/share): the LAN address when this page was
// opened on 127.0.0.1 / localhost, so the share link is never a loopback one.
let shareInfo = null;
function useShareInfo() {
  const [info, setInfo] = useState(shareInfo);
  useEffect(() => {
    if (info) return;
    if (!shareInfo) shareInfo = api("/api/share").catch(() => ({ base: location.origin, lan: [], local_only: false }));
    Promise.resolve(shareInfo).then((x) => { shareInfo = x; setInfo(x); });
  }, []);
  return info;
}

// The invitation: the room's link (always shown, selectable), its QR code, the system
// share sheet where there is one, and a copy button that works over plain http. A hall
// that listens on loopback only (`local_only`) shows no QR code — a friend's phone could
// not open its link — but says how to start it for phones.
function ShareBox({ code, variant, testid }) {
  const info = useShareInfo();
  const [copied, setCopied] = useState("");
  const ref = useRef(null);
  const base = info ? info.base : location.origin;
  const link = `${base}/r/${encodeURIComponent(code)}`;
  async function copy() {
    const ok = await copyText(link);
    if (!ok && ref.current) { ref.current.focus(); ref.current.select(); }
    setCopied(ok ? "ok" : "manual");
    setTimeout(() => setCopied(""), 2500);
  }
  function shareSheet() {
    navigator.share({ title: t("app"), text: t("share_text", { variant: variantName(variant), code }), url: link })
      .catch(() => {});  // closed by the person, or refused: nothing to say
  }
  return html`<div class="sharebox" data-testid=${testid || "sharebox"}>
    ${!info ? html`<div class="qr"></div>` : info.local_only ? "" : html`<img class="qr" src=${`/api/qr?text=${encodeURIComponent(link)}`} alt=${t("qr_alt")} title=${link} data-testid="share-qr" width="148" height="148" />`}
    <div class="share-main">
      <p class="muted small">${t("share_hint")}</p>
      <textarea class="share-link" readonly rows="2" ref=${ref} aria-label=${t("share")} data-testid="share-link"
        onFocus=${(e) => e.currentTarget.select()} value=${link}></textarea>
      <div class="row buttons">
        ${typeof navigator.share === "function" ? html`<button type="button" class="primary" data-testid="share-sheet" onClick=${shareSheet}>${t("share_sheet")}</button>` : ""}
        <button type="button" data-testid="copy-share" onClick=${copy}>${t("copy")}</button>
        <span class="copied" role="status" aria-live="polite">${copied === "ok" ? t("copied") : copied === "manual" ? t("copy_manual") : ""}</span>
      </div>
      ${info && info.local_only ? html`<p class="note-warn small" data-testid="share-local-only">${t("share_local_only")}</p>` : ""}
    </div>
  </div>`;
}

function WaitingRoom({ table, room, code }) {
  return html`<div class="waitingroom">
    <h2>${variantName(table.variant)}</h2>
    ${!room.over ? html`<${ShareBox} code=${code} variant=${table.variant} />` : ""}
    <ol class="seatlist">${table.seats.map((p, i) => html`<li key=${i}>${displayName(p)}${p === room.host ? ` · ${t("host_controls")}` : ""}</li>`)}</ol>
    ${table.waiting.length ? html`<p>${t("waiting_list")}: ${table.waiting.map(displayName).join(", ")}</p>` : ""}
  </div>`;
}

function RoomPanel({ code, token, room, table, me, myName, host, seated, send }) {
  const [copied, setCopied] = useState(false);
  const info = useShareInfo();
  const mine = `${info ? info.base : location.origin}/r/${code}?t=${encodeURIComponent(token)}`;
  const copyMine = async () => { if (await copyText(mine)) { setCopied(true); setTimeout(() => setCopied(false), 2500); } };
  const buys = myName && !table.horses_off.includes(myName);
  const player = me && me.role === "player";
  return html`<div class="roompanel">
    <section><h3>${t("share")}</h3>
      ${!room.over ? html`<${ShareBox} code=${code} variant=${table.variant} testid="sharebox-panel" />` : ""}
      <p class="muted">${t("my_link")}</p>
      <div class="copyrow"><input readonly value=${mine} aria-label=${t("my_link")} onFocus=${(e) => e.currentTarget.select()} />
        <button type="button" onClick=${copyMine}>${copied ? t("copied") : t("copy")}</button></div>
    </section>
    <section><h3>${t("room")} ${code}</h3>
      <ol class="seatlist">${table.seats.map((p, i) => html`<li key=${i}>${displayName(p)}
        ${p === room.host ? html` <span class="tag">${t("host_controls")}</span>` : ""}
        ${room.auto.includes(p) ? html` <span class="tag auto">${t("auto_short")}</span>` : ""}
        ${p && !p.startsWith("🤖") && !room.online.includes(p) ? html` <span class="tag off">${t("offline")}</span>` : ""}</li>`)}</ol>
      ${table.waiting.length ? html`<p><strong>${t("waiting_list")}</strong>: ${table.waiting.map(displayName).join(", ")}</p>` : ""}
      ${room.spectators.length ? html`<p><strong>${t("spectators")}</strong>: ${room.spectators.map(displayName).join(", ")}</p>` : ""}
    </section>
    ${descriptor(table.variant)?.horses && myName && (seated || table.waiting.includes(myName)) ? html`<section>
      <label class="check"><input type="checkbox" data-testid="horse" checked=${buys} disabled=${room.in_hand || room.over}
        onChange=${(e) => send(ClientOp.HORSE, { buy: e.currentTarget.checked })} /> ${t("buy_horse")}</label></section>` : ""}
    ${player && myName && !seated && !table.waiting.includes(myName) && !room.over ? html`<section>
      <button type="button" onClick=${() => send(ClientOp.SIT)}>${t("sit")}</button></section>` : ""}
    ${seated ? html`<section><p class="muted small">${t("keys_hint")}</p></section>` : ""}
    ${host && !room.over ? html`<section class="host"><h3>${t("host_controls")}</h3><div class="row buttons">
      ${!room.started ? html`<button type="button" class="primary" onClick=${() => send(ClientOp.START)}>${t("start")}</button>` : ""}
      ${room.started && !room.paused ? html`<button type="button" onClick=${() => send(ClientOp.PAUSE)}>${t("pause")}</button>` : ""}
      ${room.paused ? html`<button type="button" onClick=${() => send(ClientOp.RESUME)}>${t("resume")}</button>` : ""}
      <button type="button" class="danger" onClick=${() => { if (confirm(t("end_confirm"))) send(ClientOp.END); }}>${t("end_match")}</button>
    </div></section>` : ""}
    ${seated && room.started && !room.over && !room.vote ? html`<section><button type="button" onClick=${() => send(ClientOp.DISMISS, { agree: true })}>${t("dismiss")}</button></section>` : ""}
    <${AppSettings} />
  </div>`;
}
