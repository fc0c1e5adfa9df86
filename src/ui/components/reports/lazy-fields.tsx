import { Suspense, type ReactNode } from 'react';
import { cx } from '../class-names';
import * as fieldStyles from '../field.css';
import { lazyPart } from '../lazy-with-timeout';
import { Skeleton } from '../skeleton';
import type { RangeFieldProps } from '../range-field';

/*
 * The date range (calendar, segmented inputs, @internationalized/date) and the users multi-select
 * are the heaviest parts of the report routes: they load in their own chunks right after the first
 * paint, so the table and its data are not held up by them (`routeExtraGzipKB` in bench/budgets.json: 60 KB gzipped per route).
 */
const RangeFieldChunk = lazyPart(() => import('../range-field').then((m) => ({ default: m.RangeField })));

/** The field's label and a box of the control's height while its chunk loads. */
export function FieldFallback({ label, className }: { label: ReactNode; className?: string }) {
  return (
    <div className={cx(fieldStyles.field, className)} aria-busy="true">
      <span className={fieldStyles.label}>{label}</span>
      <Skeleton height="2.5rem" />
    </div>
  );
}

/** {@link RangeField}, loaded on first render. */
export function LazyRangeField(props: RangeFieldProps) {
  return (
    <Suspense fallback={<FieldFallback label={props.label} className={props.className} />}>
      <RangeFieldChunk {...props} />
    </Suspense>
  );
}
