import { setupUser } from './user-event';
import { vi } from 'vitest';

/**
 * Helpers for the report and sheet component tests (jsdom): user-event without per-key pauses or
 * style checks, and a recorder of the files the screens hand to the browser through Blob URLs.
 */
export const keys = setupUser();

/** Screen flows render React Aria tables in jsdom on shared cores: allow for a busy machine. */
export const FLOW_TIMEOUT_MS = 30_000;

export interface SavedFile {
  blob: Blob;
  name: string;
}

/** Records every Blob saved through a download link (jsdom has no Blob URLs and cannot navigate). */
export function csvDownloads() {
  const saved: SavedFile[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      n += 1;
      const url = `blob:test/${n}`;
      blobs.set(url, blob);
      return url;
    }),
    revokeObjectURL: vi.fn(),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ blob, name: this.download });
  });
  return {
    saved,
    last(): SavedFile {
      const file = saved.at(-1);
      if (!file) throw new Error('no file was saved');
      return file;
    },
  };
}

/** A saved CSV: its name and type, whether it starts with the UTF-8 BOM, its text and lines. */
export async function readCsv(file: SavedFile) {
  const bytes = new Uint8Array(await file.blob.arrayBuffer());
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = new TextDecoder('utf-8').decode(bom ? bytes.subarray(3) : bytes);
  return { name: file.name, type: file.blob.type, bom, text, lines: text.split('\r\n').slice(0, -1) };
}
