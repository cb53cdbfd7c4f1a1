// The variants as the hall describes them (GET /api/variants): each one's options and its
// descriptor (`describe`: the wildcard's mark and words, winds, action and meld labels
// and the actions' labels in context, the only ones the client has,
// horses, the score-keeper's facts and next-dealer rule), so no page branches on a
// variant's id. Loaded once; pages re-render when it arrives (onVariants).
import { savedGet } from "./offline.js";

/**
 * @typedef {object} Fact
 * @property {string} key
 * @property {"bool" | "seat" | "count" | "wind" | "choice"} form
 * @property {boolean | number | string | null} default
 * @property {[string, string]} label
 * @property {"win" | "always"} when
 * @property {string[]} how
 * @property {number | null} maximum
 * @property {Array<[string, [string, string]]>} choices
 *
 * @typedef {object} Descriptor
 * @property {string} id
 * @property {number} order
 * @property {number} seats
 * @property {number} hand_size
 * @property {{mark: string, word: [string, string], indicator: [string, string]} | null} wildcard
 * @property {string[]} winds
 * @property {"option" | "extra" | null} prevalent_wind
 * @property {boolean} flowers
 * @property {boolean} horses
 * @property {Record<string, [string, string]>} actions
 * @property {Record<string, [string, string]>} melds
 * @property {Fact[]} facts
 * @property {Record<string, Record<string, [string, string]>>} forms  an action's label in
 *   context: `forms[type][phase]` (自摸 on one's turn, 天听 in a decide window), or for a
 *   special kong `forms.special_kong[meld kind]` (红中杠, 赖子杠)
 *
 * @typedef {object} VariantInfo
 * @property {string} id
 * @property {string} name
 * @property {number} seats
 * @property {Record<string, any>} options
 * @property {string[]} fields
 * @property {Descriptor} describe
 */

/** @type {Map<string, VariantInfo> | null} */
let known = null;
/** @type {Promise<VariantInfo[]> | null} */
let loading = null;
const listeners = new Set();

/** Every variant, in the lobby's order (fetched once). @returns {Promise<VariantInfo[]>} */
export function loadVariants() {
  if (!loading) {  // kept on the device by savedGet: the score-keeper offline
    loading = savedGet("/api/variants").then((/** @type {VariantInfo[]} */ vs) => {
      const sorted = [...vs].sort((a, b) => a.describe.order - b.describe.order);
      known = new Map(sorted.map((v) => [v.id, v]));
      for (const f of listeners) f();
      return sorted;
    }).catch(() => /** @type {VariantInfo[]} */ ([]));
  }
  return loading;
}

/** Called once the variants have arrived; returns the unsubscribe. @param {() => void} f */
export function onVariants(f) { listeners.add(f); return () => { listeners.delete(f); }; }

/** The descriptor of a variant (null until loaded, or for an unknown id). @param {string | undefined | null} id */
export function descriptor(id) {
  const v = known && id ? known.get(id) : undefined;
  return v ? v.describe : null;
}
