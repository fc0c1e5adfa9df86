import type { SheetFile, SheetSink } from '../../../machines/reports/sheet-stream';
import { saveBlob } from './csv-file';

/**
 * Where a streamed sheet goes. With the File System Access API (Chrome, Edge) each chunk is written
 * to the file the user chose, so a sheet of any size never sits in memory; elsewhere the chunks are
 * gathered into a Blob and saved at the end.
 */

interface WritableFile {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
}

interface SaveFileHandle {
  name: string;
  createWritable(): Promise<WritableFile>;
}

interface SaveFilePickerOptions {
  suggestedName?: string;
  types?: { description?: string; accept: Record<string, string[]> }[];
}

/** The part of `window` the picker lives on (not in TypeScript's DOM library yet). */
export interface PickerWindow {
  showSaveFilePicker?: (options?: SaveFilePickerOptions) => Promise<SaveFileHandle>;
}

/** Whether this browser can stream a download straight to a file. */
export function canPickFile(win: PickerWindow = window as PickerWindow): boolean {
  return typeof win.showSaveFilePicker === 'function';
}

/** A chosen file, ready to be written chunk by chunk. */
export interface PickedFile {
  name: string;
  sink: SheetSink;
}

/**
 * Asks where to save `suggestedName` (call it from the click: the picker needs the user's gesture).
 * Resolves `null` when the user dismisses the dialog. Writes go to a swap file the browser commits
 * on `close`; `abort` discards them.
 */
export async function pickFile(
  suggestedName: string,
  description: string,
  win: PickerWindow = window as PickerWindow,
): Promise<PickedFile | null> {
  if (!win.showSaveFilePicker) return null;
  let handle: SaveFileHandle;
  try {
    handle = await win.showSaveFilePicker({
      suggestedName,
      types: [{ description, accept: { 'text/csv': ['.csv'] } }],
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') return null;
    throw error;
  }
  const writable = await handle.createWritable();
  return {
    name: handle.name,
    sink: {
      write: (chunk) => writable.write(chunk),
      close: () => writable.close(),
      abort: (reason) => writable.abort(reason),
    },
  };
}

/** Raw chunks held before they are folded into a Blob, which the browser may keep off the JS heap. */
export const BLOB_COMPACT_BYTES = 8 * 1024 * 1024;

/** The fallback sink: chunks gathered into one Blob, saved through a Blob URL when the stream ends. */
export function blobSink(file: SheetFile, save: (blob: Blob, name: string) => void = saveBlob): SheetSink {
  let parts: BlobPart[] = [];
  let pending: BlobPart[] = [];
  let pendingBytes = 0;
  const compact = () => {
    if (pending.length === 0) return;
    parts = [new Blob([...parts, ...pending])];
    pending = [];
    pendingBytes = 0;
  };
  return {
    write(chunk) {
      // Chunks from fetch bodies are plain ArrayBuffer views; the cast only narrows TypeScript's lib type.
      pending.push(chunk as Uint8Array<ArrayBuffer>);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= BLOB_COMPACT_BYTES) compact();
    },
    close() {
      compact();
      save(new Blob(parts, { type: `${file.type};charset=utf-8` }), file.name);
      parts = [];
    },
    abort() {
      parts = [];
      pending = [];
    },
  };
}
