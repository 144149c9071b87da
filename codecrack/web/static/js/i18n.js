// Translations of the front end: t(key, params) reads the JSON catalogue of the chosen language
// (/static/i18n/<lang>.json, flat keys); English fills any gap. The language is the one picked in
// the header (kept in localStorage), else the browser's first language there is a catalogue for.
// A language is a catalogue file: the server lists the files present (GET /api/languages).

const STORE = "codecrack:lang";
const SOURCE = "en";

async function load(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function choose(codes) {
  const known = new Map(codes.map((code) => [code.toLowerCase(), code]));
  const stored = localStorage.getItem(STORE);
  const wanted = [...(stored ? [stored] : []), ...(navigator.languages ?? [navigator.language])];
  for (const tag of wanted) {
    const lower = String(tag).replace(/-/g, "_").toLowerCase();
    const match = known.get(lower) ?? known.get(lower.split("_")[0]);
    if (match) return match;
  }
  return SOURCE;
}

// [{code, name}] of every catalogue, each name in its own language.
export const languages = await load("/api/languages").catch(() => [{ code: SOURCE, name: "English" }]);
export const lang = choose(languages.map((l) => l.code));
const source = await load(`/static/i18n/${SOURCE}.json`);
const catalogue = lang === SOURCE ? source : await load(`/static/i18n/${lang}.json`).catch(() => source);
const plurals = new Intl.PluralRules(lang);

function lookup(key, count) {
  const keys = typeof count === "number" ? [`${key}.${plurals.select(count)}`, `${key}.other`, key] : [key];
  for (const table of [catalogue, source]) {
    for (const k of keys) if (typeof table[k] === "string") return table[k];
  }
  return key;
}

// Whether the catalogues have `key` (for texts that exist for some values only, e.g. an AI tier's name).
export function known(key) {
  return typeof catalogue[key] === "string" || typeof source[key] === "string";
}

// The text of `key` with its {placeholders} filled from `params`; a `count` param picks the plural
// form (`key.one`, `key.other`, as Intl.PluralRules names them).
export function t(key, params = {}) {
  return lookup(key, params.count).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function setLanguage(code) {
  localStorage.setItem(STORE, code);
  location.reload();
}

// Static texts of index.html carry data-i18n="key" (their text) or data-i18n-ATTR="key" (an attribute).
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("*")) {
    for (const [name, key] of Object.entries(el.dataset)) {
      if (name.startsWith("i18n") && name !== "i18n") el.setAttribute(name.slice(4).toLowerCase(), t(key));
    }
  }
}
