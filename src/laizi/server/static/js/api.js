// HTTP helpers and what the browser remembers (localStorage).

// A refused request: the server's error (`code`, and the whole object as `detail`, e.g. a
// score-keeper refusal as data) and the HTTP status.
export class ApiError extends Error {
  /** @param {{code: string, message: string}} err @param {number} status */
  constructor(err, status) {
    super(err.message);
    this.code = err.code;
    this.status = status;
    this.detail = err;
  }
}

/**
 * GET (or `method`) `path`, with `body` as JSON; the answer's JSON, or an ApiError.
 * `token`: a seat token, sent in the X-Laizi-Token header (never in the URL, which logs keep).
 * This device's identity, when it has one, goes with every call (X-Laizi-Person).
 * @param {string} path
 * @param {{method?: string, body?: any, token?: string}} [opts]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body = undefined, token = undefined } = {}) {
  /** @type {Record<string, string>} */
  const headers = body === undefined ? {} : { "Content-Type": "application/json" };
  if (token !== undefined) headers["X-Laizi-Token"] = token;
  const person = personCredential();
  if (person) headers["X-Laizi-Person"] = person;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || { code: `http_${res.status}`, message: res.statusText };
    throw new ApiError(err, res.status);
  }
  return data;
}

const ROOMS = "laizi.rooms";

// Rooms this browser has a seat token for: {code: {token, name, role, time}}.
export function myRooms() {
  try { return JSON.parse(localStorage.getItem(ROOMS) || "{}"); } catch { return {}; }
}
export function rememberRoom(code, info) {
  const all = myRooms();
  all[code] = { ...(all[code] || {}), ...info, time: Date.now() };
  const keys = Object.keys(all).sort((a, b) => all[b].time - all[a].time);
  for (const k of keys.slice(30)) delete all[k];
  localStorage.setItem(ROOMS, JSON.stringify(all));
}
export function forgetRoom(code) {
  const all = myRooms();
  delete all[code];
  localStorage.setItem(ROOMS, JSON.stringify(all));
}

export function getName() { return localStorage.getItem("laizi.name") || ""; }
export function setName(n) { localStorage.setItem("laizi.name", n); }

export function pref(key, fallback) {
  const v = localStorage.getItem(`laizi.pref.${key}`);
  return v === null ? fallback : JSON.parse(v);
}
export function setPref(key, value) { localStorage.setItem(`laizi.pref.${key}`, JSON.stringify(value)); }

// This device's identity (docs/hall.md, "People"): "ID.SECRET", given once by the hall
// and kept here; the hall stores only a hash of the secret.
const PERSON = "laizi.person";
export function personCredential() { return localStorage.getItem(PERSON) || ""; }
/** @param {{credential: string}} made */
export function keepPerson(made) { localStorage.setItem(PERSON, made.credential); ensured = null; }

/** @type {Promise<any> | null} */
let ensured = null;
/**
 * This device's person ({id, name, devices, recovery}), made silently on the first visit
 * (a guest plays at once: no sign-up); a credential the hall no longer knows is replaced.
 * @param {string} [name] the name to give a new person
 * @returns {Promise<any>}
 */
export function ensurePerson(name) {
  if (!ensured) {
    ensured = (async () => {
      if (personCredential()) {
        try { return await api("/api/me"); } catch (err) {
          if (!(err instanceof ApiError) || err.code !== "unknown_person") throw err;
          localStorage.removeItem(PERSON);
        }
      }
      keepPerson(await api("/api/me", { method: "POST", body: { name: name || "玩家" } }));
      return await api("/api/me");
    })();
    ensured.catch(() => { ensured = null; });
  }
  return ensured;
}
