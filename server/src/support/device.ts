/**
 * A short label of a session's device from its sign-in's user agent, for the support desk
 * (contracts/openapi.yaml `SupportSession.device`): "Chrome 131 · Windows". The user agent is the
 * client's to say, so this is a hint to read to a person on the phone, never a fact to decide on.
 */

/** Browsers, most specific first (Edge and Opera also say Chrome; Chrome also says Safari). */
const BROWSERS: readonly [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)(?:[.\d]*)? (?:Mobile\/\S+ )?Safari\//],
];

/** Systems, most specific first (Android also says Linux; iPadOS may say Macintosh, and then is macOS). */
const SYSTEMS: readonly [name: string, pattern: RegExp][] = [
  ['Android', /\bAndroid\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Windows', /\bWindows\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

export function deviceLabel(userAgent: string | null): string | null {
  if (userAgent === null || userAgent.trim() === '') return null;
  const browser = BROWSERS.map(([name, pattern]) => {
    const major = pattern.exec(userAgent)?.[1];
    return major === undefined ? undefined : `${name} ${major}`;
  }).find((found) => found !== undefined);
  const system = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0];
  const parts = [browser, system].filter((part): part is string => part !== undefined);
  // Neither known (a script, an unusual client): its own first words, short enough for a label.
  if (parts.length === 0) return userAgent.trim().slice(0, 40);
  return parts.join(' · ');
}
