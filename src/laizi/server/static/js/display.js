// How the page is drawn for this person: "normal", or "large" (大字模式: bigger tiles and
// buttons, thicker borders, higher contrast, for the older players of a family table).
// Chosen once and remembered on the device; applied as the class `large` on <html>
// (static/css/style.css), before the first render.

const KEY = "laizi.display";
/** @typedef {"normal" | "large"} Display */
/** @type {Display} */
let display = localStorage.getItem(KEY) === "large" ? "large" : "normal";
const listeners = new Set();

function apply() { document.documentElement.classList.toggle("large", display === "large"); }
apply();

/** @returns {Display} */
export function getDisplay() { return display; }
/** @param {Display} d */
export function setDisplay(d) {
  display = d === "large" ? "large" : "normal";
  localStorage.setItem(KEY, display);
  apply();
  for (const f of listeners) f(display);
}
/** @param {(d: Display) => void} f */
export function onDisplay(f) { listeners.add(f); return () => listeners.delete(f); }
