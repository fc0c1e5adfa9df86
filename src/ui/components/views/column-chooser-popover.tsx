import type { RefObject } from 'react';
import { useId } from 'react';
import { Checkbox } from '../checkbox';
import { Popover } from '../dialog';
import * as popoverStyles from '../popover.css';
import * as styles from './list-views.css';

export interface ChooserColumn {
  id: string;
  label: string;
  shown: boolean;
  /** Always shown: checked and disabled (the identifying column, the actions). */
  fixed: boolean;
}

export interface ColumnChooserPopoverProps {
  triggerRef: RefObject<HTMLButtonElement | null>;
  title: string;
  columns: readonly ChooserColumn[];
  onShownChange: (id: string, shown: boolean) => void;
  onClose: () => void;
}

/**
 * The open "Colunas" chooser of ./list-views.tsx (a checkbox per column), in a chunk of its own with
 * React Aria's checkbox: the list renders without it.
 */
export default function ColumnChooserPopover({
  triggerRef,
  title,
  columns,
  onShownChange,
  onClose,
}: ColumnChooserPopoverProps) {
  const titleId = useId();
  return (
    <Popover triggerRef={triggerRef} className={popoverStyles.popover} aria-labelledby={titleId} onClose={onClose}>
      <div className={styles.chooser}>
        <p id={titleId} className={styles.chooserTitle}>
          {title}
        </p>
        {columns.map((column) =>
          column.fixed ? (
            <Checkbox key={column.id} isSelected isDisabled>
              {column.label}
            </Checkbox>
          ) : (
            <Checkbox key={column.id} isSelected={column.shown} onChange={(shown) => onShownChange(column.id, shown)}>
              {column.label}
            </Checkbox>
          ),
        )}
      </div>
    </Popover>
  );
}
