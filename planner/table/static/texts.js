// The page's own words in the phone's language. Every text is a gettext message of the "table" domain, written
// in the script as t("...") or, counted, tn("singular", "plural", n) (Babel's extractor reads these calls; the
// HTML's texts are read by planner/table/extract.py). The server sends the language's catalogue as JSON; a text
// it lacks stays English. Each phone keeps its own language (local storage) and sends it with every request.
"use strict";

const LANGS = { en: "English", uk: "Українська", pl: "Polski", cs: "Čeština", ja: "日本語", ru: "Русский" };
const LANG_KEY = "elfenland.lang";
const TRANSLATED_ATTRS = ["aria-label", "placeholder", "alt", "title"];

const speech = { lang: "en", texts: {} };

// The plural form's index for n, in the catalogue's order (CLDR's rules, as gettext's Plural-Forms has them).
function pluralIndex(lang, n) {
  const ten = n % 10, hundred = n % 100;
  const few = ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14);
  switch (lang) {
    case "ja": return 0;
    case "cs": return n === 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2;
    case "pl": return n === 1 ? 0 : few ? 1 : 2;
    case "uk": case "ru": return ten === 1 && hundred !== 11 ? 0 : few ? 1 : 2;
    default: return n === 1 ? 0 : 1;
  }
}

function fill(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole))
    : text;
}

// Mark a message for the catalogue without translating it yet (a table of texts, translated by t() where shown).
function N_(message) {
  return message;
}

// A message in the phone's language, its {name} placeholders filled from values.
function t(message, values) {
  const text = speech.texts[message];
  return fill(typeof text === "string" && text ? text : message, values);
}

// A counted message: the form of n by the language's plural rule ({n} is filled with n).
function tn(singular, plural, n, values) {
  const forms = speech.texts[singular];
  const text = Array.isArray(forms) && forms.length ? forms[Math.min(pluralIndex(speech.lang, n), forms.length - 1)]
    : (n === 1 ? singular : plural);
  return fill(text || (n === 1 ? singular : plural), { n, ...values });
}

function chosenLang() {
  try { return localStorage.getItem(LANG_KEY) || ""; } catch { return ""; }
}

// The headers that tell the server this phone's language (none: it reads Accept-Language).
function langHeaders() {
  const lang = chosenLang();
  return lang ? { "x-elfenland-lang": lang } : {};
}

// The HTML's own texts and labels, translated once at start (the English in the HTML is the source).
function translateDocument() {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim();
    if (text && speech.texts[text]) node.nodeValue = node.nodeValue.replace(text, t(text));
  }
  for (const element of document.querySelectorAll(TRANSLATED_ATTRS.map((a) => `[${a}]`).join(","))) {
    for (const name of TRANSLATED_ATTRS) {
      const value = element.getAttribute(name);
      if (value) element.setAttribute(name, t(value));
    }
  }
  document.title = t(document.title);
}

// The language switch: a choice kept on this phone only, which reloads the page in it.
function languageSwitch() {
  const select = document.getElementById("lang");
  for (const [code, name] of Object.entries(LANGS)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === speech.lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    try { localStorage.setItem(LANG_KEY, select.value); } catch { /* private mode: this page only */ }
    location.reload();
  });
}

// Read this phone's catalogue, then translate the page (called before anything is drawn).
async function loadTexts() {
  try {
    const response = await fetch("/api/texts", { credentials: "same-origin", headers: langHeaders() });
    if (response.ok) Object.assign(speech, await response.json());
  } catch { /* offline at start: the page speaks English */ }
  document.documentElement.lang = speech.lang;
  translateDocument();
  languageSwitch();
}
