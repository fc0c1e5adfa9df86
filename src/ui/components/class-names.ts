/** Joins class names, skipping falsy ones (a tiny `clsx` so the primitives need no dependency). */
export function cx(...names: ReadonlyArray<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}
