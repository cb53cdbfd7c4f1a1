// The hall's browser client: one page, four views chosen by the path.
//   /            the lobby            /r/CODE       a room's table (?t=TOKEN: a seat)
//   /replay/CODE a finished match     /score        the score-keeper of a real table
//   /me/link/TOKEN  another device of this person (account.js)
//   /c/INVITE    a club's invite      /club/ID      a club's page (club.js)
import { html } from "htm/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { onLang } from "./i18n.js";
import { Lobby } from "./lobby.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";
import { ScorePage } from "./score.js";
import { LinkPage } from "./account.js";
import { ClubInvitePage, ClubPage } from "./club.js";
import { loadVariants, onVariants } from "./variants.js";
import { registerWorker } from "./device.js";

loadVariants();  // the variants' descriptors, which every page reads
registerWorker();  // the app's files cached, the score-keeper offline (device.js)

function App() {
  const [, setTick] = useState(0);
  useEffect(() => onLang(() => setTick((x) => x + 1)), []);
  useEffect(() => onVariants(() => setTick((x) => x + 1)), []);
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/r\/([^/]+)\/?$/))) return html`<${TablePage} code=${decodeURIComponent(m[1])} />`;
  if ((m = path.match(/^\/replay\/([^/]+)\/?$/))) return html`<${ReplayPage} code=${decodeURIComponent(m[1])} />`;
  if (path.startsWith("/score")) return html`<${ScorePage} />`;
  if ((m = path.match(/^\/me\/link\/([^/]+)\/?$/))) return html`<${LinkPage} token=${decodeURIComponent(m[1])} />`;
  if ((m = path.match(/^\/c\/([^/]+)\/?$/))) return html`<${ClubInvitePage} invite=${decodeURIComponent(m[1])} />`;
  if ((m = path.match(/^\/club\/([^/]+)\/?$/))) return html`<${ClubPage} id=${decodeURIComponent(m[1])} />`;
  return html`<${Lobby} />`;
}

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
root.textContent = "";
render(html`<${App} />`, root);
