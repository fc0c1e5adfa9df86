/** A chunk that has not loaded after 120 s is an error (docs/product.md, Errors; src/ui/components/preloadable.tsx). */
export const CHUNK_TIMEOUT_MS = 120_000;
