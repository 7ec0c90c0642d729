// Maps keyed by names people type (model names, virtual model names, groups): a plain `{}`
// answers `map["constructor"]` and `map["toString"]` with Object.prototype's functions, and
// `map["__proto__"] = v` replaces its prototype instead of storing an entry, so such a name
// would read as set, or vanish when saved (docs/conventions.md, "Own keys"). Build these maps
// with dict() and read them with own(). Pure and free of "server-only": the console uses it.

/** An empty map without a prototype, optionally filled: every name, "__proto__" included, is an entry of its own. */
export function dict<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (from) for (const k of Object.keys(from)) out[k] = from[k];
  return out;
}

/** The entry stored under the name, never a property inherited from Object.prototype. */
export function own<T>(map: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(map, name) ? map[name] : undefined;
}
