/** Types of bench/route-sizes.mjs (plain JS so `npm run build` runs it without tsx). */
export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}
export interface Measured {
  files: string[];
  js: Sizes;
  css: Sizes;
  html: Sizes;
  all: Sizes;
}
export interface RouteRow extends Measured {
  kind: 'initial' | 'layout' | 'route' | 'lazy' | 'whole';
  route: string;
  path: string;
  request?: string | null;
  note?: string;
  chunks?: string[];
}
export interface Contributor {
  name: string;
  raw: number;
  gzipEstimate: number;
  chunks: string[];
}
export interface DuplicatedModules {
  /** Modules found in more than one chunk. */
  count: number;
  /** Their source bytes (rspack's module size) × (copies − 1), summed. */
  bytes: number;
  modules: { name: string; size: number; chunks: string[] }[];
}
export interface RouteSizes {
  rows: RouteRow[];
  whole: RouteRow;
  loginContributors: Contributor[];
  entryChunks: (Measured & { id: string })[];
  /** The scripts the login page loads eagerly (before its form is interactive), as served. */
  loginEager: Measured & { page: string | null };
  /** Modules the build put in more than one chunk (bench/route-sizes-duplicates.mjs). */
  duplicates: DuplicatedModules;
  /** Whether the build wrote `.br`/`.gz` files beside its assets (scripts/precompress.mjs). */
  precompressed: boolean;
}
export interface BundleBudgets {
  loginGzipKB: number;
  /** The login page's eager JS, brotli as served. */
  loginBrotliKB?: number;
  routeExtraGzipKB: number;
  wholeAppGzipKB: number;
  /** Source KB of the copies of modules in more than one chunk (bench/route-sizes-duplicates.mjs). */
  duplicatedModuleKB?: number;
}
export function parseRegistry(source: string): Map<string, string | null>;
export function eagerScripts(html: string): string[];
export function parseRouteTable(source: string): Map<string, { path: string; layout: 'main' | 'blank' }>;
export function duplicatedModules(stats: {
  chunks?: { id: string | number; modules?: { name?: string; size?: number; modules?: unknown[] }[] }[];
}): DuplicatedModules;
export function computeRouteSizes(options?: { root?: string }): RouteSizes;
export function checkRouteSizes(
  result: RouteSizes,
  budgets: BundleBudgets,
): { name: string; value: number; budget: number; unit: string; ok: boolean }[];
export function formatRouteSizes(result: RouteSizes, budgets?: BundleBudgets): string;
