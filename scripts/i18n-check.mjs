#!/usr/bin/env node
// Checks the console's catalogues against English (docs/i18n.md): every key present and no
// other, the same placeholders (ICU arguments in messages/*.json, {name} in the server's
// catalogues), each message parsable, and lists the values left identical to English.
// Usage: node scripts/i18n-check.mjs [locale ...]   (all languages when none is given)
import { readFileSync } from "node:fs";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";

const ALL = ["zh", "zh-TW", "en", "ja", "fr", "ru", "vi", "es"];

export function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out[key] = v;
    else flatten(v, key, out);
  }
  return out;
}

// The argument names of an ICU message (plural/select branches included).
export function icuArgs(message) {
  const names = new Set();
  const walk = (nodes) => {
    for (const n of nodes) {
      if (n.type === TYPE.argument || n.type === TYPE.number || n.type === TYPE.date || n.type === TYPE.time) names.add(n.value);
      if (n.type === TYPE.plural || n.type === TYPE.select) {
        names.add(n.value);
        for (const o of Object.values(n.options)) walk(o.value);
      }
      if (n.type === TYPE.tag) {
        names.add(`<${n.value}>`);
        walk(n.children);
      }
    }
  };
  walk(parse(message));
  return [...names].sort().join(",");
}

// The server catalogue (lib/i18n/server-messages/<l>.ts): its object literal, read as
// JavaScript (the file's only TypeScript is its import and type annotation, outside it).
function serverCatalogue(locale) {
  const text = readFileSync(new URL(`../lib/i18n/server-messages/${locale}.ts`, import.meta.url), "utf8");
  const start = text.indexOf("{", text.indexOf("export const"));
  return new Function(`return (${text.slice(start, text.lastIndexOf("}") + 1)});`)();
}
const braceArgs = (s) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join(",");

const en = flatten(JSON.parse(readFileSync(new URL("../messages/en.json", import.meta.url), "utf8")));
const enServer = serverCatalogue("en");

/** One language against English: its problems, and the keys whose value is English's own. */
export function checkLocale(locale) {
  const problems = [];
  const identical = [];
  let msgs = {};
  try {
    msgs = flatten(JSON.parse(readFileSync(new URL(`../messages/${locale}.json`, import.meta.url), "utf8")));
  } catch (e) {
    problems.push(`messages/${locale}.json: ${e.message}`);
  }
  for (const [key, value] of Object.entries(en)) {
    if (!(key in msgs)) {
      problems.push(`missing ${key}`);
      continue;
    }
    try {
      if (icuArgs(value) !== icuArgs(msgs[key])) problems.push(`placeholders differ in ${key}: en {${icuArgs(value)}} vs {${icuArgs(msgs[key])}}`);
    } catch (e) {
      problems.push(`does not parse: ${key}: ${e.message}`);
    }
    if (msgs[key] === value) identical.push(key);
  }
  for (const key of Object.keys(msgs)) if (!(key in en)) problems.push(`extra ${key}`);
  let server = {};
  try {
    server = serverCatalogue(locale);
  } catch (e) {
    problems.push(`lib/i18n/server-messages/${locale}.ts: ${e.message}`);
  }
  for (const [key, value] of Object.entries(enServer)) {
    if (!(key in server)) problems.push(`server: missing ${key}`);
    else {
      if (braceArgs(value) !== braceArgs(server[key])) problems.push(`server: placeholders differ in ${key}`);
      if (server[key] === value) identical.push(`server.${key}`);
    }
  }
  for (const key of Object.keys(server)) if (!(key in enServer)) problems.push(`server: extra ${key}`);
  return { problems, identical };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const locales = process.argv.slice(2).length ? process.argv.slice(2) : ALL.filter((l) => l !== "en");
  let count = 0;
  for (const locale of locales) {
    const { problems, identical } = checkLocale(locale);
    for (const p of problems) console.log(`${locale}: ${p}`);
    count += problems.length;
    const same = identical.filter((k) => /[a-z]{3}/i.test(k.startsWith("server.") ? enServer[k.slice(7)] : en[k]));
    if (locale !== "en" && same.length) console.log(`${locale}: ${same.length} values identical to English (check they are meant to be): ${same.join(" ")}`);
  }
  console.log(count ? `${count} problem(s)` : "catalogues match");
  process.exit(count ? 1 : 0);
}
