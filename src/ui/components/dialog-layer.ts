import { createContext, useContext } from 'react';

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
let topHost: HTMLElement | null = null;

/** Puts the top host in the topmost open layer, or at the end of `<body>` when no Modal is open. */
function placeTopHost(): void {
  if (!topHost) return;
  // A layer of another document (one a test file before left open) is no place for this document's host.
  const parent = openLayers.filter((layer) => layer.ownerDocument === document).at(-1) ?? document.body;
  if (topHost.parentElement !== parent) parent.appendChild(topHost);
}

/** A Modal's layer is open until the returned function is called. */
export function openDialogLayer(layer: HTMLElement): () => void {
  openLayers = [...openLayers, layer];
  placeTopHost();
  return () => {
    openLayers = openLayers.filter((open) => open !== layer);
    placeTopHost();
  };
}

/**
 * One element, for the toast region, that is always above whatever Modal is open: in the topmost
 * open layer, at the end of `<body>` when none is. It is moved, never rendered again, so the toasts
 * in it keep their state and their time left when a dialog opens or closes.
 */
export function topDialogLayerHost(): HTMLElement {
  // Made again for another document: one of an earlier page (a test worker that shares modules between
  // files may start another jsdom document) would hand React nodes of a dead window.
  if (!topHost || topHost.ownerDocument !== document) {
    topHost = document.createElement('div');
    topHost.setAttribute('data-top-layer-host', '');
  }
  // Put back if something emptied <body> since (a test's blank page between files, tests/setup.ts).
  placeTopHost();
  return topHost;
}
