/*
 * Labels the tenants list repeats on every row, translated once per table instead of once per row:
 * i18next's lookup and interpolation were a fifth of the 100 rows' render on the sign-in path
 * (docs/performance.md, "Sign-in → 100 rows and the form, profiled").
 */

/** Stand-ins for a text's values: `t(key, { name: MARKS[0] })` translates it once with them in place. */
export const MARKS = ['\uE000', '\uE001'] as const;

/**
 * A translated text with MARKS in place of its values (interpolation does not escape them:
 * src/i18n/options.ts), turned into a function filling them per row: `fillable(t('k', { name: MARKS[0] }))('Ana')`
 * is `t('k', { name: 'Ana' })`. For texts whose values are printed as given (no plural, no format).
 */
export function fillable(text: string): (...values: string[]) => string {
  // [text, mark index, text, mark index, …, text]
  const parts: (string | number)[] = [];
  let rest = text;
  for (;;) {
    const at = Math.min(...MARKS.map((mark) => rest.indexOf(mark)).filter((i) => i >= 0));
    if (!Number.isFinite(at)) break;
    parts.push(rest.slice(0, at), MARKS.indexOf(rest[at] as (typeof MARKS)[number]));
    rest = rest.slice(at + 1);
  }
  parts.push(rest);
  return (...values) => {
    let out = '';
    for (const part of parts) out += typeof part === 'number' ? (values[part] ?? '') : part;
    return out;
  };
}

/** `label` remembered per value: for the few values a column repeats (plans, templates, pools). */
export function remembered<V, R>(label: (value: V) => R): (value: V) => R {
  const known = new Map<V, R>();
  return (value) => {
    if (known.has(value)) return known.get(value) as R;
    const result = label(value);
    known.set(value, result);
    return result;
  };
}
