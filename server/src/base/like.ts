/**
 * Escapes `%`, `_` and the escape character itself, so a search for "50%" or "a_b" matches those
 * characters and nothing else (LIKE's default escape is the backslash).
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
