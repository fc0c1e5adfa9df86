// @vitest-environment jsdom
import { topDialogLayerHost } from './dialog-layer';

describe('the top dialog layer host', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is one element under <body>, put back when <body> was emptied', () => {
    const host = topDialogLayerHost();
    expect(host.parentElement).toBe(document.body);
    document.body.replaceChildren();
    expect(topDialogLayerHost()).toBe(host);
    expect(host.parentElement).toBe(document.body);
  });

  // A worker that shares modules between files (vitest.config.ts) may give a later file another jsdom
  // document: a host of the one before would give React nodes of a dead window, on which React Aria's
  // landmarks throw (the toast region's, in a clean clone's views lane).
  it('is made again in the current document when the document changed', () => {
    const before = topDialogLayerHost();
    const other = document.implementation.createHTMLDocument('');
    vi.stubGlobal('document', other);
    const host = topDialogLayerHost();
    expect(host).not.toBe(before);
    expect(host.ownerDocument).toBe(other);
    expect(host.parentElement).toBe(other.body);
  });
});
