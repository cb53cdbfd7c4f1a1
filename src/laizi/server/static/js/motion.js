// The table's motion, listening on the event bus (bus.js): a discard travels from the
// hand to the river, a claimed tile is pulled from the discarder's river into its meld,
// a win reveals the winner's hand. It adds a class (css/senses.css) to what the page has
// just rendered and takes it away when the animation ends; the page's components know
// nothing of it. Nothing moves for a person who asks for reduced motion (the media query
// here and in the CSS).
import { bus } from "./bus.js";
import { ActionType, GameEventType, Outcome } from "./protocol.js";

const CLASSES = ["motion-discard", "motion-claim", "motion-reveal"];
const LONGEST_MS = 700;  // a class left by a missed animationend goes after this

function reduced() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {string} sel @returns {HTMLElement | null} */
const one = (sel) => /** @type {HTMLElement | null} */ (document.querySelector(sel));
/** @param {string} sel @returns {HTMLElement[]} */
const all = (sel) => /** @type {HTMLElement[]} */ ([...document.querySelectorAll(sel)]);

function centre(el) {
  const b = el.getBoundingClientRect();
  return [b.left + b.width / 2, b.top + b.height / 2];
}

// Play `cls` on `el`, starting from where `from` is (the travel), then clean up.
/** @param {HTMLElement | null} el @param {string} cls @param {HTMLElement | null} [from] */
function play(el, cls, from) {
  if (!el) return;
  if (from) {
    const [fx, fy] = centre(from);
    const [tx, ty] = centre(el);
    el.style.setProperty("--dx", `${Math.round(fx - tx)}px`);
    el.style.setProperty("--dy", `${Math.round(fy - ty)}px`);
  }
  el.classList.remove(cls);
  el.classList.add(cls);
  const done = () => el.classList.remove(cls);
  el.addEventListener("animationend", done, { once: true });
  setTimeout(done, LONGEST_MS);
}

// A seat's hand on the page: the dock for one's own, else the seat's panel on the board.
function handOf(seat, me) {
  return (seat === me ? one(".dock .myhand") : null)
    || one(`.seat[data-seat="${seat}"] .concealed`) || one(`.seat[data-seat="${seat}"]`);
}

function discarded(seat, me) {
  const river = all(`.seat[data-seat="${seat}"] .discards .tile`);
  play(river[river.length - 1] || null, "motion-discard", handOf(seat, me));
}

function claimed(seat, from, me) {
  const melds = seat === me ? all(".dock .mymelds .meld") : all(`.seat[data-seat="${seat}"] .melds .meld`);
  const meld = melds[melds.length - 1];
  if (!meld) return;
  const tile = /** @type {HTMLElement | null} */ (meld.querySelector(".tile.rot")) || meld;
  play(tile, "motion-claim", from === undefined || from === null ? null : one(`.seat[data-seat="${from}"] .discards`));
}

function revealed(winners, me) {
  for (const s of winners) {
    const tiles = s === me ? all(".dock .myhand .tile") : all(`.seat[data-seat="${s}"] .concealed .tile`);
    tiles.forEach((el, i) => { el.style.setProperty("--i", String(i)); play(el, "motion-reveal"); });
  }
}

/** @param {any} ev @param {import("./bus.js").BusContext} ctx */
function see(ev, ctx) {
  if (!ctx.live || reduced()) return;
  const me = ctx.state.mySeat;
  let move = null;
  if (ev.type === GameEventType.ACTION && ev.action && ev.action.type === ActionType.DISCARD) {
    move = () => discarded(ev.action.seat, me);
  } else if (ev.type === GameEventType.CLAIM && ev.meld) {
    move = () => claimed(ev.seat, ev.meld.from, me);
  } else if (ev.type === GameEventType.END && ev.record && ev.record.outcome === Outcome.WIN) {
    move = () => revealed(ev.record.winners || [], me);
  }
  // The frame's render runs first (Preact renders in a microtask): move it on the next frame.
  if (move && typeof requestAnimationFrame === "function") requestAnimationFrame(move);
}

// Listen while a table is open; the returned function stops (and leaves nothing moving).
export function startMotion() {
  const off = bus.on(see);
  return () => {
    off();
    for (const cls of CLASSES) all(`.${cls}`).forEach((el) => el.classList.remove(cls));
  };
}
