// The websocket of one member (docs/hall.md): `state` (`hints`, `phrase`) frames in,
// messages out.
//
// * Every message carries a `seq` unique for the member: it starts from the clock (so two
//   tabs of one person do not collide) and counts up. The answer (`ack` / `error`) with
//   that seq resolves the promise `send` returned.
// * The connection comes back by itself (exponential backoff, 0.5 s doubling up to 15 s)
//   with the last version it had, so the server sends exactly the missed events.
// * The seat token goes in the first message, `{"op": "hello", "token"}`, never in the URL.
// * Nothing is applied locally: the page shows what the server's frames say.
import { ErrorCode, ServerOp } from "./protocol.js";

/** @typedef {import("./protocol.js").ServerFrame} ServerFrame */
/** @typedef {import("./protocol.js").Answer} Answer */

// Errors after which the connection does not come back by itself.
/** @type {string[]} */
const FATAL = [ErrorCode.UNKNOWN_ROOM, ErrorCode.UNKNOWN_TOKEN, ErrorCode.FORBIDDEN_ORIGIN, ErrorCode.KICKED];
// Close codes after which it does not either: an unknown room or token, a page of another
// site, a person the host removed (踢出).
const FINAL_CLOSE = [4404, 4403, 4410];

export class Conn {
  /**
   * @param {string} code
   * @param {string} token
   * @param {{onFrame: (f: import("./protocol.js").StateFrame, live: boolean) => void,
   *          onStatus: (s: string, err?: import("./protocol.js").ErrorJSON) => void,
   *          onHints?: (f: import("./protocol.js").HintsFrame) => void,
   *          onPhrase?: (f: import("./protocol.js").PhraseFrame) => void}} handlers
   */
  constructor(code, token, { onFrame, onStatus, onHints, onPhrase }) {
    this.code = code;
    this.token = token;
    this.onFrame = onFrame;
    this.onHints = onHints;
    this.onPhrase = onPhrase;
    this.onStatus = onStatus;
    this.version = 0;
    this.seq = Date.now() * 1000 + Math.floor(Math.random() * 1000);
    this.waiting = new Map();
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.caughtUp = false;
    this.connect();
    this._online = () => { if (!this.ws || this.ws.readyState > 1) this.retryNow(); };
    window.addEventListener("online", this._online);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // No token in the URL (a proxy's access log keeps URLs): it goes in the first message.
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}?version=${this.version}`;
  }

  connect() {
    clearTimeout(this.timer);
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ op: "hello", token: this.token }));
      this.caughtUp = false;
      this.attempt = 0;
      this.onStatus("open");
    };
    ws.onmessage = (m) => {
      /** @type {ServerFrame} */
      let f;
      try { f = JSON.parse(m.data); } catch { return; }
      if (f.op === ServerOp.STATE) {
        this.version = f.version;
        const live = this.caughtUp;
        this.caughtUp = true;
        this.onFrame(f, live);
      } else if (f.op === ServerOp.HINTS) {
        if (this.onHints) this.onHints(f);
      } else if (f.op === ServerOp.ACK || f.op === ServerOp.ERROR) {
        if (f.op === ServerOp.ERROR && f.seq === null && FATAL.includes(f.error?.code)) {
          this.fatal = f.error;
        }
        const w = this.waiting.get(f.seq);
        if (w) { this.waiting.delete(f.seq); w(f); }
      } else if (f.op === ServerOp.PHRASE) {
        if (this.onPhrase) this.onPhrase(f);
      }
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      for (const [, w] of this.waiting) w({ op: ServerOp.ERROR, seq: null, error: { code: "disconnected", message: "disconnected" } });
      this.waiting.clear();
      if (this.closed) return;
      if (FINAL_CLOSE.includes(e.code) || this.fatal) {
        this.onStatus("gone", this.fatal);
        return;
      }
      const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      this.onStatus("reconnecting");
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  retryNow() {
    if (this.closed) return;
    this.attempt = Math.max(this.attempt, 1);
    this.connect();
  }

  // Send {op, ...fields}; resolves with the answer frame (ack or error).
  /**
   * @param {import("./protocol.js").ClientOpWord} op
   * @param {Record<string, any>} [fields]
   * @returns {Promise<Answer>}
   */
  send(op, fields = {}) {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== 1) {
        resolve({ op: ServerOp.ERROR, seq, error: { code: "disconnected", message: "not connected" } });
        return;
      }
      this.waiting.set(seq, resolve);
      this.ws.send(JSON.stringify({ op, seq, ...fields }));
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this._online);
    if (this.ws) this.ws.close();
  }
}
