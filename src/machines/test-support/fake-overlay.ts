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
