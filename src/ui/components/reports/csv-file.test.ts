import { csvCell, csvDateTime, csvDocument } from './csv-file';
import { blobSink, BLOB_COMPACT_BYTES, canPickFile, pickFile } from './save-file';

describe('client-side CSV (the sheet format)', () => {
  it('quotes separators, quotes and line breaks; decimals with a comma; empty cells for null', () => {
    expect(csvDocument([['a;b', 'say "hi"', 'two\r\nlines', null, 7, { decimal: 1234.5 }, 0.125]])).toBe(
      '\uFEFF"a;b";"say ""hi""";"two\r\nlines";;7;1234,50;0,13\r\n',
    );
  });

  it('keeps text that looks like a formula as text (CSV injection), numbers untouched', () => {
    expect(['=1+1', '+55 11', '-x', '@SUM(A1)', 'ok'].map(csvCell)).toEqual([
      "'=1+1",
      "'+55 11",
      "'-x",
      "'@SUM(A1)",
      'ok',
    ]);
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell({ decimal: -12.5 })).toBe('-12,50');
    // The rule of src/domain/csv-formula.ts: also behind spaces and invisible marks, and full-width.
    expect([' =1', '\u200B@x', '＝1', '\n=1;2', "'=1", 'a=1'].map(csvCell)).toEqual([
      "' =1",
      "'\u200B@x",
      "'＝1",
      '"\'\n=1;2"',
      "'=1",
      'a=1',
    ]);
  });

  it('writes instants as YYYY-MM-DD HH:mm in São Paulo; an invalid one is an empty cell', () => {
    expect(csvDateTime('2026-11-02T12:01:00Z')).toBe('2026-11-02 09:01');
    expect(csvDateTime('2026-11-01T02:30:00Z')).toBe('2026-10-31 23:30');
    expect(csvDateTime('nope')).toBe('');
  });
});

describe('download sinks', () => {
  const encoder = new TextEncoder();
  const file = { name: 'orders.csv', type: 'text/csv' };

  it('the Blob fallback folds chunks into a Blob past the threshold and saves the whole file on close', async () => {
    const saved: { blob: Blob; name: string }[] = [];
    const sink = blobSink(file, (blob, name) => saved.push({ blob, name }));
    const big = new Uint8Array(BLOB_COMPACT_BYTES).fill(0x61);
    await sink.write(encoder.encode('\uFEFFh\r\n'));
    await sink.write(big);
    await sink.write(encoder.encode('\r\nend'));
    await sink.close();
    expect(saved).toHaveLength(1);
    expect(saved[0]?.name).toBe('orders.csv');
    expect(saved[0]?.blob.type).toBe('text/csv;charset=utf-8');
    expect(saved[0]?.blob.size).toBe(3 + 3 + BLOB_COMPACT_BYTES + 5);
  });

  it('an aborted Blob download saves nothing', async () => {
    const save = vi.fn();
    const sink = blobSink(file, save);
    await sink.write(encoder.encode('x'));
    await sink.abort('cancel');
    expect(save).not.toHaveBeenCalled();
  });

  it('asks the picker for a CSV file and writes through its writable; a dismissed dialog is null', async () => {
    const calls: string[] = [];
    const win = {
      showSaveFilePicker: vi.fn(async () => ({
        name: 'mine.csv',
        createWritable: async () => ({
          write: async (chunk: Uint8Array) => void calls.push(`write ${chunk.byteLength}`),
          close: async () => void calls.push('close'),
          abort: async () => void calls.push('abort'),
        }),
      })),
    };
    expect(canPickFile(win)).toBe(true);
    expect(canPickFile({})).toBe(false);
    const picked = await pickFile('orders-a.csv', 'Pedidos', win);
    expect(win.showSaveFilePicker).toHaveBeenCalledWith({
      suggestedName: 'orders-a.csv',
      types: [{ description: 'Pedidos', accept: { 'text/csv': ['.csv'] } }],
    });
    await picked?.sink.write(encoder.encode('abc'));
    await picked?.sink.close();
    expect(picked?.name).toBe('mine.csv');
    expect(calls).toEqual(['write 3', 'close']);
    const dismissed = {
      showSaveFilePicker: vi.fn(() => Promise.reject(Object.assign(new Error('no'), { name: 'AbortError' }))),
    };
    expect(await pickFile('x.csv', 'X', dismissed)).toBeNull();
  });
});
