// The lobby: create a room (variant, house rules, bots, clock, hands), join one by its
// code as a player or a spectator, the rooms this browser holds a seat in, 我的战绩 and
// the 账号 card (account.js).
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { getLang, t, variantName } from "./i18n.js";
import { api, ensurePerson, getName, myRooms, rememberRoom, setName } from "./api.js";
import { AccountCard, MyHistory } from "./account.js";
import { ClubsCard } from "./club.js";
import { changedOptions, OptionsForm } from "./options.js";
import { TopBar, useToast } from "./ui.js";
import { displayName, errorText } from "./words.js";
import { loadVariants } from "./variants.js";
import { AppSettings } from "./device.js";

/** @typedef {import("./variants.js").VariantInfo} VariantInfo */

// Every variant (GET /api/variants), in the lobby's order; null while loading.
/** @returns {VariantInfo[] | null} */
export function useVariants() {
  const [variants, setVariants] = useState(/** @type {VariantInfo[] | null} */ (null));
  useEffect(() => { loadVariants().then(setVariants); }, []);
  return variants;
}

/**
 * @typedef {object} BotLevel  a strength the room's bots may have (GET /api/bots)
 * @property {string} id
 * @property {string} spec
 * @property {string} zh
 * @property {string} en
 */

// The bots' strength levels (新手 / 熟手 / 高手), weakest first, as the hall names them;
// null while loading.
/** @returns {BotLevel[] | null} */
function useBotLevels() {
  const [levels, setLevels] = useState(/** @type {BotLevel[] | null} */ (null));
  useEffect(() => { api("/api/bots").then(setLevels).catch(() => setLevels([])); }, []);
  return levels;
}

export function Lobby() {
  const variants = useVariants();
  const [name, setNameState] = useState(getName());
  const [picked, setVariant] = useState(/** @type {string | null} */ (null));
  const variant = picked ?? (variants && variants.length ? variants[0].id : null);
  const [options, setOptions] = useState({});
  const levels = useBotLevels();
  const [bots, setBots] = useState("practised");  // 熟手
  const [clock, setClock] = useState("20");
  const [hands, setHands] = useState("");
  const [claimMin, setClaimMin] = useState("0.8");
  const [botDelay, setBotDelay] = useState("0.5");
  const [between, setBetween] = useState("8");
  const [pauseEmpty, setPauseEmpty] = useState(true);
  const [hints, setHints] = useState(true);  // 听牌提示, on unless the host turns it off
  const [roomName, setRoomName] = useState("");
  const [code, setCode] = useState("");
  const [role, setRole] = useState("player");
  const [toast, setMsg] = useToast();
  const [busy, setBusy] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [who, setWho] = useState(0);  // a new identity on this device (restored): 战绩 again
  const lang = getLang();
  const v = variants && variants.find((x) => x.id === variant);

  useEffect(() => { document.title = `${t("app")}`; });
  // This device's identity, made silently on the first visit (a guest plays at once).
  useEffect(() => { ensurePerson(getName()).catch(() => {}); }, []);

  const changeName = (n) => { setNameState(n); setName(n.trim()); };
  const needName = () => {
    if (!name.trim()) { setMsg(t("name_needed")); document.getElementById("player-name")?.focus(); return true; }
    return false;
  };

  async function create(e) {
    e.preventDefault();
    if (needName() || busy) return;
    setBusy(true);
    const settings = { variant, options: changedOptions(v, options), bots,
      clock: clock === "none" ? null : Number(clock),
      claim_min: Number(claimMin), bot_delay: Number(botDelay), between: Number(between),
      pause_empty: pauseEmpty, hints };
    if (hands) settings.hands = Number(hands);
    if (roomName.trim()) settings.name = roomName.trim();
    try {
      const r = await api("/api/rooms", { method: "POST", body: { name: name.trim(), settings } });
      rememberRoom(r.code, { token: r.token, name: name.trim(), role: "player", variant });
      location.href = `/r/${r.code}?t=${encodeURIComponent(r.token)}`;
    } catch (err) {
      setMsg(errorText(err));
      setBusy(false);
    }
  }

  async function join(e) {
    e.preventDefault();
    if (needName() || busy) return;
    const c = code.trim();
    if (!c) return;
    setBusy(true);
    try {
      const r = await api(`/api/rooms/${encodeURIComponent(c)}/join`, { method: "POST", body: { name: name.trim(), role } });
      rememberRoom(r.code, { token: r.token, name: name.trim(), role: r.role });
      location.href = `/r/${r.code}?t=${encodeURIComponent(r.token)}`;
    } catch (err) {
      setMsg(errorText(err));
      setBusy(false);
    }
  }

  const rooms = Object.entries(myRooms()).sort((a, b) => b[1].time - a[1].time).slice(0, 8);

  return html`<div class="page lobby">
    <${TopBar} title="" />
    <main class="cards">
      <section class="card hero">
        <p class="tagline">${t("lobby_title")}</p>
        <label class="big" for="player-name">${t("your_name")}
          <input id="player-name" name="player-name" maxlength="24" autocomplete="nickname" value=${name}
            onInput=${(e) => changeName(e.currentTarget.value)} /></label>
      </section>

      <form class="card" onSubmit=${create} data-testid="create-form">
        <h2>${t("create_room")}</h2>
        <label for="variant">${t("variant")}
          <select id="variant" name="variant" value=${variant} onChange=${(e) => { setVariant(e.currentTarget.value); setOptions({}); }}>
            ${(variants || []).map((x) => html`<option value=${x.id}>${variantName(x.id, x.name)}</option>`)}
          </select></label>
        <${OptionsForm} variant=${v} value=${options} onChange=${setOptions} lang=${lang} />
        <div class="row">
          <label for="bots">${t("bots")}
            <select id="bots" name="bots" value=${bots} onChange=${(e) => setBots(e.currentTarget.value)}>
              ${(levels || []).map((b) => html`<option value=${b.id}>${lang === "zh" ? b.zh : b.en}</option>`)}
            </select></label>
          <label for="clock">${t("clock")}
            <select id="clock" name="clock" value=${clock} onChange=${(e) => setClock(e.currentTarget.value)}>
              <option value="none">${t("clock_none")}</option>
              ${["10", "15", "20", "30", "60"].map((s) => html`<option value=${s}>${t("seconds", { n: s })}</option>`)}
            </select></label>
          <label for="hands">${t("hands")}
            <input id="hands" name="hands" type="number" min="1" max="1000" inputmode="numeric" placeholder=${t("hands_default")}
              value=${hands} onInput=${(e) => setHands(e.currentTarget.value)} /></label>
        </div>
        <label class="check" for="pause_empty" title=${t("pause_empty_hint")}><input id="pause_empty" name="pause_empty" type="checkbox"
          aria-describedby="pause_empty_hint" checked=${pauseEmpty} onChange=${(e) => setPauseEmpty(e.currentTarget.checked)} /> ${t("pause_empty")}</label>
        <p class="muted small option-hint" id="pause_empty_hint">${t("pause_empty_hint")}</p>
        <label class="check" for="hints" title=${t("hints_option_hint")}><input id="hints" name="hints" type="checkbox" data-testid="hints-option"
          aria-describedby="hints_hint" checked=${hints} onChange=${(e) => setHints(e.currentTarget.checked)} /> ${t("hints_option")}</label>
        <p class="muted small option-hint" id="hints_hint">${t("hints_option_hint")}</p>
        <details>
          <summary>${t("advanced")}</summary>
          <div class="row">
            <label for="room-name">${t("room_name")}<input id="room-name" name="room-name" maxlength="64" value=${roomName} onInput=${(e) => setRoomName(e.currentTarget.value)} /></label>
            <label for="claim_min">${t("claim_min")}<input id="claim_min" name="claim_min" type="number" min="0" max="10" step="0.1" value=${claimMin} onInput=${(e) => setClaimMin(e.currentTarget.value)} /></label>
            <label for="bot_delay">${t("bot_delay")}<input id="bot_delay" name="bot_delay" type="number" min="0" max="10" step="0.1" value=${botDelay} onInput=${(e) => setBotDelay(e.currentTarget.value)} /></label>
            <label for="between">${t("between")}<input id="between" name="between" type="number" min="0" max="120" step="1" value=${between} onInput=${(e) => setBetween(e.currentTarget.value)} /></label>
          </div>
        </details>
        <button class="primary" type="submit" disabled=${busy || !variants}>${t("create")}</button>
      </form>

      <form class="card" onSubmit=${join} data-testid="join-form">
        <h2>${t("join_room")}</h2>
        <label for="code">${t("room_code")}
          <input id="code" name="code" inputmode="numeric" autocomplete="off" maxlength="16" value=${code} onInput=${(e) => setCode(e.currentTarget.value)} /></label>
        <div class="radios" role="radiogroup">
          <label class="check"><input type="radio" name="role" value="player" checked=${role === "player"} onChange=${() => setRole("player")} /> ${t("as_player")}</label>
          <label class="check"><input type="radio" name="role" value="spectator" checked=${role === "spectator"} onChange=${() => setRole("spectator")} /> ${t("as_spectator")}</label>
        </div>
        <button class="primary" type="submit" disabled=${busy}>${t("join")}</button>
      </form>

      ${rooms.length ? html`<section class="card"><h2>${t("my_rooms")}</h2><ul class="myrooms">
        ${rooms.map(([c, r]) => html`<li key=${c}><a href=${`/r/${c}`}>${c}</a> <span>${displayName(r.name)}</span>
          <span class="muted">${r.variant ? variantName(r.variant) : ""} ${r.role === "spectator" ? `· ${t("as_spectator")}` : ""}</span></li>`)}
      </ul></section>` : ""}

      <section class="card">
        <h2>${t("history")}</h2>
        ${showHistory ? html`<${MyHistory} version=${who} />`
          : html`<button type="button" data-testid="show-history" onClick=${() => setShowHistory(true)}>${t("show_history")}</button>`}
      </section>
      <${ClubsCard} />
      <${AccountCard} onChange=${() => setWho((x) => x + 1)} />

      <section class="card">
        <h2><a href="/score">${t("score_keeper")}</a></h2>
        <p class="muted">${t("score_keeper_hint")}</p>
      </section>
      <div class="card"><${AppSettings} /></div>
    </main>
    ${toast}
  </div>`;
}
