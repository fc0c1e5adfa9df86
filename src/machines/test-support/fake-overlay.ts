import type { OverlayControl } from '../shared/bulk-run';

/** An {@link OverlayControl} that records its calls; `held` is true between a suspend and its resume. */
export interface FakeOverlay extends OverlayControl {
  calls: ('suspend' | 'resume')[];
  held: boolean;
}

export function fakeOverlay(): FakeOverlay {
  const overlay: FakeOverlay = {
    calls: [],
    held: false,
    suspend() {
      overlay.calls.push('suspend');
      overlay.held = true;
    },
    resume() {
      overlay.calls.push('resume');
      overlay.held = false;
    },
  };
  return overlay;
}

/**
 * The overlay property of a bulk run, checked after every step of a model walk: it is held exactly
 * while the run runs, and every suspend was followed by one resume before the next (never held twice,
 * never resumed unheld), so the overlay always comes back.
 */
export function expectOverlayRestored(overlay: FakeOverlay, running: boolean): void {
  expect(overlay.held).toBe(running);
  expect(overlay.calls.every((call, i) => call === (i % 2 === 0 ? 'suspend' : 'resume'))).toBe(true);
  expect(overlay.calls.length % 2).toBe(running ? 1 : 0);
}
