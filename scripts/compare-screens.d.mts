/** Types of scripts/compare-screens.mjs (plain JS: run with node as is). */
export interface ScreenComparison {
  status: 'identical' | 'differs' | 'resized' | 'only-before' | 'only-after';
  /** Pixels whose RGBA differs at all (identical and differs). */
  pixels?: number;
  /** Pixels pixelmatch counts at the threshold, anti-aliasing left out (differs). */
  visible?: number;
  /** Pixels in the before image (all but only-before/only-after when the bytes are equal). */
  total?: number;
  /** The smallest box holding every differing pixel (differs). */
  box?: { x: number; y: number; width: number; height: number };
  /** `W×H → W×H` (resized). */
  size?: string;
}
export function compareScreen(
  beforeFile: string | undefined,
  afterFile: string | undefined,
  options?: { threshold?: number; diffFile?: string },
): ScreenComparison;
export function compareFolders(
  beforeDir: string,
  afterDir: string,
  options?: { threshold?: number; diffDir?: string },
): (ScreenComparison & { name: string })[];
