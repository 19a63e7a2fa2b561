// i18n.js: every word the browser client shows comes from a message catalogue
// (web/lang/en.js, web/lang/de.js) through t(key, params).
//
// The language is the one chosen with the switch (kept in localStorage), else
// the browser's (navigator.languages), else English. A catalogue entry is a
// string with {name} placeholders, or a function of the params for plurals
// and word order. Both catalogues have the same keys (an e2e test checks it);
// a key missing in one falls back to English, then to the key itself.
import en from './lang/en.js';
import de from './lang/de.js';

export const CATALOGUES = { en, de };
export const LANGS = [['de', 'Deutsch'], ['en', 'English']];
const KEY = 'kontor-lang';

function fromBrowser() {
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (CATALOGUES[base]) return base;
  }
  return 'en';
}

let lang = 'en';
try { lang = CATALOGUES[localStorage.getItem(KEY)] ? localStorage.getItem(KEY) : fromBrowser(); } catch { lang = fromBrowser(); }
document.documentElement.lang = lang;

export function getLang() { return lang; }

export function setLang(l) {
  if (!CATALOGUES[l]) return;
  lang = l;
  try { localStorage.setItem(KEY, l); } catch { /* private mode: for this page only */ }
  document.documentElement.lang = l;
}

export function t(key, p = {}) {
  const v = CATALOGUES[lang][key] ?? en[key];
  if (v === undefined) return key;
  if (typeof v === 'function') return v(p);
  return v.replace(/\{(\w+)\}/g, (m, k) => (p[k] !== undefined ? String(p[k]) : m));
}

// An error the server answered with ({code, error}), in the user's language:
// the catalogue's message for its code ('err.' + code), else the server's
// own (English) text for a code the catalogue does not know yet.
export function errorText(data, status) {
  const code = data && typeof data.code === 'string' ? data.code : '';
  const server = data && typeof data.error === 'string' ? data.error : `HTTP ${status ?? '?'}`;
  return code ? tOr(`err.${code}`, server) : server;
}

// t() only if the catalogue has the key, else the fallback (words that the
// server sends and the catalogue may not know: a new variant, a new move).
export function tOr(key, fallback, p = {}) {
  return CATALOGUES[lang][key] !== undefined || en[key] !== undefined ? t(key, p) : fallback;
}
