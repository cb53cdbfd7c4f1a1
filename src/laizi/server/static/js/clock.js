// The claim / turn countdown: the only part of the table that ticks. It re-renders itself
// every 200 ms while a clock runs and it has a prompt; nothing else on the page does.
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { useStore } from "./store.js";

// Renders again every `ms` while `active`. The time left is read from performance.now()
// at render time, never from a tick kept in state: a tick is stale when a prompt arrives
// after a while without one (the countdown showed 22 on a 20 s clock).
function useTicking(active, ms = 200) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const id = setInterval(() => setTick((x) => x + 1), ms);
    return () => clearInterval(id);
  }, [active, ms]);
}

// Seconds left on the clock (null: none), never more than the room's clock.
/** @param {number | null} endAt @param {number | null | undefined} clock */
export function secondsLeft(endAt, clock) {
  if (endAt === null) return null;
  const left = Math.max(0, (endAt - performance.now()) / 1000);
  return typeof clock === "number" && clock > 0 ? Math.min(clock, left) : left;
}

export function Clock() {
  const endAt = useStore((s) => s.endAt);
  const prompted = useStore((s) => !!(s.frame && s.frame.legal.length));
  const clock = useStore((s) => (s.frame ? s.frame.room.settings.clock : null));
  useTicking(endAt !== null && prompted);
  const left = secondsLeft(endAt, clock);
  if (left === null || !prompted) return null;
  return html`<div class="clock" role="timer" aria-label=${`${Math.ceil(left)} s`}>
    <div class="clock-bar" style=${`width:${Math.min(100, (left / Math.max(1, clock || 1)) * 100)}%`}></div>
    <span>${Math.ceil(left)}</span></div>`;
}
