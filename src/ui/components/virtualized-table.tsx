import type { Key } from 'react-aria-components/Table';
import { TableLayout, Virtualizer } from 'react-aria-components/Virtualizer';
import { cx } from './class-names';
import { DataTableView, type DataTableProps } from './data-table';
import * as styles from './table.css';

export interface VirtualizedDataTableProps<T extends { id: Key }> extends DataTableProps<T> {
  /** Height of the scrolling table in px (or any CSS length, e.g. `calc(100vh - 240px)`). */
  height: number | string;
  /** Fixed row height in px; rows are laid out, not measured, so 10,000 rows cost nothing. */
  rowHeight?: number;
  headingHeight?: number;
}

/**
 * {@link DataTable} for long lists (users: 10,000+): RAC `Virtualizer` with a `TableLayout` renders
 * only the rows in view plus a small overscan — a few dozen row elements whatever the length —
 * while keyboard navigation, selection, `aria-rowcount`/`aria-rowindex` still cover every row.
 * Lives in its own module so screens without long lists never load the virtualizer.
 */
export function VirtualizedDataTable<T extends { id: Key }>({ height, rowHeight = 44, headingHeight = 44, className, ...props }: VirtualizedDataTableProps<T>) {
  return (
    <div className={cx(styles.wrapper, className)} aria-busy={props.status === 'loading' || undefined}>
      <Virtualizer layout={TableLayout} layoutOptions={{ rowHeight, headingHeight }}>
        <DataTableView {...props} tableClassName={styles.virtualTable} tableStyle={{ height }} />
      </Virtualizer>
    </div>
  );
}
