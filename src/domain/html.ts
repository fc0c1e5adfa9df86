/**
 * Escapes text for HTML text or a double-quoted attribute (`&`, `"`, `<`, `>`): the runtime settings
 * the server writes into index.html and the build-time login page (src/app/prerender.tsx).
 */
export function escapeHtmlText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
