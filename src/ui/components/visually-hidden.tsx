import type { CSSProperties, ReactNode } from 'react';

export interface VisuallyHiddenProps {
  children: ReactNode;
  /** Render as a block-level `div` instead of an inline `span`. */
  elementType?: 'span' | 'div';
  /** For `aria-describedby` of a control the hidden text explains. */
  id?: string;
}

/**
 * The clip that keeps content in the accessibility tree while taking it off screen; the same
 * declarations React Aria's `VisuallyHidden` sets, as an inline style so no stylesheet order matters.
 */
const hidden: CSSProperties = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  width: '1px',
  whiteSpace: 'nowrap',
};

/**
 * Content for screen readers only (e.g. "Sucesso" before a toast's text, a status that the eye
 * reads from an icon): clipped, not `display: none`, so it is read. A plain element, no React Aria,
 * so the screens that use it (tenants list, tables) do not load it for this.
 */
export function VisuallyHidden({ children, elementType: Element = 'span', id }: VisuallyHiddenProps) {
  return (
    <Element id={id} style={hidden}>
      {children}
    </Element>
  );
}
