// The hall's admin page (docs/deploy.md, "The admin page"): live rooms, end a room, ban a
// name or an address. Every request carries the admin token as `Authorization: Bearer`;
// the token stays in this tab's sessionStorage, never in a URL.

const WORDS = {
  title: ["牌馆管理", "Hall admin"],
  token: ["管理口令", "Admin token"],
  open: ["打开", "Open"],
  rooms: ["进行中的房间", "Live rooms"],
  refresh: ["刷新", "Refresh"],
  code: ["房间号", "Code"],
  name: ["名称", "Name"],
  seats: ["座位", "Seats"],
  online: ["在线", "Online"],
  hands: ["局数", "Hands"],
  end: ["结束", "End"],
  bans: ["禁止名单", "Bans"],
  kind_name: ["名字", "Name"],
  kind_address: ["地址", "Address"],
  ban: ["禁止", "Ban"],
  lift: ["解除", "Lift"],
  no_rooms: ["没有进行中的房间", "No live rooms"],
  ended: ["房间已结束", "The room is over"],
  banned: ["已禁止", "Banned"],
  bad_token: ["口令不对", "Wrong token"],
  failed: ["失败", "Failed"],
  confirm_end: ["结束这个房间的比赛？", "End this room's match?"],
};
const LANGS = ["zh", "en"];
const TOKEN_KEY = "laizi.admin.token";
const LANG_KEY = "laizi.admin.lang";

let lang = localStorage.getItem(LANG_KEY) || (navigator.language.startsWith("zh") ? "zh" : "en");

/** @param {keyof typeof WORDS} key */
function t(key) {
  return WORDS[key][lang === "zh" ? 0 : 1];
}

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id}`);
  return el;
}

function translate() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-t]")) {
    const key = /** @type {keyof typeof WORDS} */ (el.getAttribute("data-t"));
    if (key in WORDS) el.textContent = t(key);
  }
  $("lang").textContent = lang === "zh" ? "English" : "中文";
  document.title = `laizi · ${t("title")}`;
}

/** @param {string} text @param {boolean} [ok] */
function say(text, ok = false) {
  const el = $("status");
  el.textContent = text;
  el.className = ok ? "ok" : "";
}

/**
 * An admin API call: the answer's JSON, or an Error with the server's code.
 * @param {string} path @param {{method?: string, body?: any}} [opts] @returns {Promise<any>}
 */
async function call(path, { method = "GET", body = undefined } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) || ""}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = new Error((data && data.error && data.error.message) || res.statusText);
    err.name = (data && data.error && data.error.code) || `http_${res.status}`;
    throw err;
  }
  return data;
}

/** @param {string} tag @param {string} [text] @returns {HTMLElement} */
function el(tag, text = "") {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

/** @param {any} err */
function failed(err) {
  say(err && err.name === "not_admin" ? t("bad_token") : `${t("failed")}: ${err && err.message}`);
  if (err && err.name === "not_admin") $("main").hidden = true;
}

async function showRooms() {
  const rooms = await call("/admin/api/rooms");
  const body = $("rooms");
  body.replaceChildren();
  if (!rooms.length) {
    const row = el("tr");
    const cell = el("td", t("no_rooms"));
    cell.setAttribute("colspan", "6");
    row.append(cell);
    body.append(row);
  }
  for (const room of rooms) {
    const row = el("tr");
    row.dataset.code = room.code;
    row.append(el("td", room.code), el("td", (room.settings && room.settings.name) || ""),
      el("td", room.seats.join(" · ")), el("td", room.online.join(" · ")),
      el("td", String(room.hands)));
    const cell = el("td");
    const button = el("button", t("end"));
    button.addEventListener("click", async () => {
      if (!confirm(t("confirm_end"))) return;
      try {
        await call(`/admin/api/rooms/${encodeURIComponent(room.code)}/end`, { method: "POST", body: {} });
        say(`${room.code}: ${t("ended")}`, true);
        await showRooms();
      } catch (err) { failed(err); }
    });
    cell.append(button);
    row.append(cell);
    body.append(row);
  }
}

async function showBans() {
  const bans = await call("/admin/api/bans");
  const list = $("bans");
  list.replaceChildren();
  for (const ban of bans) {
    const item = el("li", `${t(ban.kind === "name" ? "kind_name" : "kind_address")}: ${ban.value} `);
    const button = el("button", t("lift"));
    button.addEventListener("click", async () => {
      try {
        await call(`/admin/api/bans/${encodeURIComponent(ban.kind)}/${encodeURIComponent(ban.value)}`,
          { method: "DELETE" });
        await showBans();
      } catch (err) { failed(err); }
    });
    item.append(button);
    list.append(item);
  }
}

async function open() {
  try {
    await Promise.all([showRooms(), showBans()]);
    $("main").hidden = false;
    say("", true);
  } catch (err) { failed(err); }
}

function start() {
  translate();
  $("lang").addEventListener("click", () => {
    lang = LANGS[(LANGS.indexOf(lang) + 1) % LANGS.length];
    localStorage.setItem(LANG_KEY, lang);
    translate();
    if (!$("main").hidden) open();
  });
  $("login").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, /** @type {HTMLInputElement} */ ($("token")).value);
    open();
  });
  $("refresh").addEventListener("click", () => { open(); });
  $("ban").addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = /** @type {HTMLInputElement} */ ($("value"));
    const kind = /** @type {HTMLSelectElement} */ ($("kind")).value;
    try {
      await call("/admin/api/bans", { method: "POST", body: { kind, value: value.value } });
      say(`${t("banned")}: ${value.value}`, true);
      value.value = "";
      await showBans();
    } catch (err) { failed(err); }
  });
  if (sessionStorage.getItem(TOKEN_KEY)) open();
}

start();
