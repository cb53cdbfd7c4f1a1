// A variant's options (house rules) as a form, built from GET /api/variants (defaults
// give each option's type). Lists and tables of overrides (晃晃 horses, which the room
// sets; Taiwan's 台 overrides) are left to their defaults.
import { html } from "htm/preact";
import { optionLabel, pick, t } from "./i18n.js";

const CHOICES = {
  priority: [["nearest", ["下家优先 (截胡)", "nearest after the discarder"]], ["dealer", ["从庄家数起", "first from the dealer"]]],
  prevalent_wind: [["E", ["东", "East"]], ["S", ["南", "South"]], ["W", ["西", "West"]], ["N", ["北", "North"]]],
  profile: [["standard", ["标准 (144 张)", "standard (144 tiles)"]], ["botzone", ["Botzone (136 张·各自牌墙)", "Botzone (136 tiles, own walls)"]]],
};

export function OptionsForm({ variant, value, onChange, lang }) {
  if (!variant) return null;
  const set = (k, v) => onChange({ ...value, [k]: v });
  const fields = Object.entries(variant.options).filter(([, d]) => ["boolean", "number", "string"].includes(typeof d));
  if (!fields.length) return null;
  return html`<fieldset class="options"><legend>${t("options")}</legend>
    ${fields.map(([k, d]) => {
      const v = value[k] === undefined ? d : value[k];
      const id = `opt-${variant.id}-${k}`;
      if (typeof d === "boolean") {
        return html`<label key=${k} class="check" for=${id}><input id=${id} type="checkbox" name=${k} checked=${v}
          onChange=${(e) => set(k, e.currentTarget.checked)} /> ${optionLabel(k)}</label>`;
      }
      if (CHOICES[k]) {
        return html`<label key=${k} for=${id}>${optionLabel(k)}
          <select id=${id} name=${k} value=${v} onChange=${(e) => set(k, e.currentTarget.value)}>
            ${CHOICES[k].map(([c, words]) => html`<option value=${c}>${pick(words)}</option>`)}
          </select></label>`;
      }
      if (typeof d === "number") {
        return html`<label key=${k} for=${id}>${optionLabel(k)}
          <input id=${id} type="number" name=${k} inputmode="numeric" value=${v} min="0"
            onInput=${(e) => { const n = parseInt(e.currentTarget.value, 10); if (!Number.isNaN(n)) set(k, n); }} /></label>`;
      }
      return html`<label key=${k} for=${id}>${optionLabel(k)}
        <input id=${id} name=${k} value=${v} onInput=${(e) => set(k, e.currentTarget.value)} /></label>`;
    })}
  </fieldset>`;
}

// Only the options that differ from the defaults (what a room stores).
export function changedOptions(variant, value) {
  const out = {};
  for (const [k, v] of Object.entries(value || {})) {
    if (variant && variant.options[k] !== v) out[k] = v;
  }
  return out;
}
