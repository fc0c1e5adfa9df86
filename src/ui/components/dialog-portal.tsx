import type { ReactNode } from 'react';
// React Aria's own portal setting, the module its overlays read it from (react-aria-components
// depends on react-aria at an exact version and does not re-export it).
import { UNSAFE_PortalProvider } from 'react-aria/PortalProvider';
import { topDialogLayerHost, useDialogLayer } from './dialog-layer';

/**
 * React Aria overlays under it (the list of a Select or MultiSelect, a DateRangePicker's calendar,
 * a tooltip) render in the layer of the Modal that holds them (dialog-layer.ts), not under
 * `<body>`: a modal `<dialog>` makes everything outside it inert and covers it, so a list under
 * `<body>` would open behind the backdrop, out of reach. Outside a Modal, `<body>` as before.
 */
export function InDialogLayer({ children }: { children: ReactNode }) {
  const getLayer = useDialogLayer();
  return <UNSAFE_PortalProvider getContainer={getLayer ?? undefined}>{children}</UNSAFE_PortalProvider>;
}

/**
 * The toast region renders in the topmost open Modal's layer (through one element that moves
 * there, dialog-layer.ts), where its toasts show above the dialog and can be dismissed; at the end
 * of `<body>` when no Modal is open.
 */
export function InTopDialogLayer({ children }: { children: ReactNode }) {
  return <UNSAFE_PortalProvider getContainer={topDialogLayerHost}>{children}</UNSAFE_PortalProvider>;
}
