import { createContext, useContext, useSyncExternalStore } from 'react';

/*
 * The layer each open Modal (dialog.tsx) holds for overlays that render in portals: a modal
 * `<dialog>` sits in the top layer and makes the rest of the page inert, so a React Aria popover or
 * the toast region under `<body>` would be behind its backdrop and out of reach. dialog-portal.tsx
 * sends React Aria's portals here. Kept apart from dialog.tsx so the heavy primitives that read it
 * do not carry the dialog's code into their chunks.
 */

/** The attribute that marks a Modal's layer: what renders there keeps its own keys and focus. */
export const LAYER_ATTRIBUTE = 'data-dialog-layer';

/** How to find the layer of the open Modal around a component (read when an overlay opens); null outside any Modal. */
export const DialogLayerContext = createContext<(() => HTMLElement | null) | null>(null);

export function useDialogLayer(): (() => HTMLElement | null) | null {
  return useContext(DialogLayerContext);
}

// The layers of the open Modals, the last one on top.
let openLayers: readonly HTMLElement[] = [];
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** A Modal's layer is open until the returned function is called. */
export function openDialogLayer(layer: HTMLElement): () => void {
  const update = (next: readonly HTMLElement[]) => {
    openLayers = next;
    for (const listener of listeners) listener();
  };
  update([...openLayers, layer]);
  return () => update(openLayers.filter((open) => open !== layer));
}

/** The layer of the topmost open Modal, or null when none is open (where the toast region goes). */
export function useTopDialogLayer(): HTMLElement | null {
  return useSyncExternalStore(
    subscribe,
    () => openLayers.at(-1) ?? null,
    () => null,
  );
}
