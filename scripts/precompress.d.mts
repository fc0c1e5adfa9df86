/** Types of scripts/precompress.mjs (plain JS: rsbuild.config.ts loads it as is). */
export const COMPRESSIBLE: Set<string>;
export function brotliMax(buffer: Buffer): Promise<Buffer>;
export function gzipMax(buffer: Buffer): Promise<Buffer>;
export function precompressDir(dir: string): Promise<{ file: string; raw: number; brotli: number; gzip: number }[]>;
