import type { ComponentProps, ReactNode } from 'react';
import { Focusable } from 'react-aria-components/Focusable';
import { Tooltip as RACTooltip, TooltipTrigger } from 'react-aria-components/Tooltip';
import { InDialogLayer } from './dialog-portal';
import * as styles from './tooltip.css';

export interface TooltipProps {
  /** Tooltip text (translated). Supplementary only: the trigger must already have a name. */
  content: ReactNode;
  /**
   * One focusable element that passes its props and ref to the DOM (Button, IconButton, Link);
   * `Focusable` gives it the trigger's focus, hover and `aria-describedby` wiring.
   */
  children: ComponentProps<typeof Focusable>['children'];
  placement?: 'top' | 'bottom' | 'start' | 'end';
  /** ms before showing on hover; focus shows it at once. */
  delay?: number;
}

/**
 * A hover/focus hint (RAC `TooltipTrigger` + `Tooltip`, role tooltip, linked by
 * `aria-describedby`). It shows on keyboard focus too and hides on Escape. Never put the only
 * copy of information or anything interactive in it.
 */
export function Tooltip({ content, children, placement = 'top', delay = 600 }: TooltipProps) {
  return (
    <TooltipTrigger delay={delay}>
      <Focusable>{children}</Focusable>
      <InDialogLayer>
        <RACTooltip placement={placement} offset={6} className={styles.tooltip}>
          {content}
        </RACTooltip>
      </InDialogLayer>
    </TooltipTrigger>
  );
}
