import type { ReactNode } from 'react';
import { VisuallyHidden as AriaVisuallyHidden } from 'react-aria-components/VisuallyHidden';

export interface VisuallyHiddenProps {
  children: ReactNode;
  /** Render as a block-level `div` instead of an inline `span`. */
  elementType?: 'span' | 'div';
}

/**
 * Content for screen readers only (e.g. "Sucesso" before a toast's text, a status that the eye
 * reads from an icon). React Aria's implementation: clipped, not `display: none`, so it is read.
 */
export function VisuallyHidden({ children, elementType = 'span' }: VisuallyHiddenProps) {
  return <AriaVisuallyHidden elementType={elementType}>{children}</AriaVisuallyHidden>;
}
