/**
 * Keeps only the app's locales in React Aria's built-in strings (rsbuild.config.ts applies it to
 * every `intlStrings.mjs` of `react-aria`, `react-stately` and `react-aria-components`). Each of
 * those modules imports its strings in 34 languages; the panel speaks pt-BR, pt (pt-PT for React
 * Aria) and en (en-US, also React Aria's own fallback), so the other 31 only cost bytes on every
 * route that shows a combo box, a select, a toast, a date picker… The same idea as React Aria's
 * optimize-locales plugin, without a dependency. Files without the expected shape pass unchanged.
 */
const KEEP = new Set(['pt-BR', 'pt-PT', 'en-US']);

export default function ariaLocalesLoader(source) {
  const dropped = new Set();
  const kept = source
    .split('\n')
    .filter((line) => {
      const imported = /^import (\S+) from "\.\.?\/intl\/(?:[^/]+\/)?([a-z]{2}-[A-Z]{2})\.mjs";$/.exec(line);
      if (imported && !KEEP.has(imported[2])) {
        dropped.add(imported[1]);
        return false;
      }
      const entry = /^\s+"([a-z]{2}-[A-Z]{2})": (\S+?),?$/.exec(line);
      return !(entry && !KEEP.has(entry[1]) && dropped.has(entry[2]));
    })
    .join('\n');
  return dropped.size > 0 ? kept : source;
}
