// HTTP helpers and what the browser remembers (localStorage).

export async function api(path, { method = "GET", body } = {}) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || { code: `http_${res.status}`, message: res.statusText };
    const e = new Error(err.message);
    e.code = err.code;
    e.status = res.status;
    e.detail = err;  // the whole error object (e.g. a score-keeper refusal as data)
    throw e;
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
