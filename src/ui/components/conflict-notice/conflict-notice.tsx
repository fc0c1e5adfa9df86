import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../domain/format';
import { readAuditValue } from '../../../machines/audit/audit-values';
import type { Conflict, ConflictChange, ConflictField } from '../../../machines/shared/conflict';
import { fieldLabel, Value, type ValueContext } from '../audit-record/audit-detail';
import { Button } from '../button';
import * as styles from './conflict-notice.css';

export interface ConflictNoticeProps {
  conflict: Conflict;
  /** The user's unsaved values, stored → edited, in the audit log's JSON text (src/machines/shared/conflict.ts). */
  mine: readonly ConflictField[];
  /** The audit target type of the form's record: picks the words of its values (a plan, a status). */
  targetType: string;
  /** How an item of a list field reads (a permission's display name for its route name); as recorded by default. */
  itemLabel?: (field: string, item: string) => string;
  /** How a field is named (a feature's name for its option); the audit log's words by default. */
  fieldName?: (field: string) => string | null;
  /** The choice in flight, if any. */
  resolving?: 'reapply' | 'discard' | null;
  onReapply: () => void;
  onDiscard: () => void;
  onDismiss: () => void;
}

function ListChange({
  field,
  before,
  after,
  itemLabel,
}: {
  field: string;
  before: string[];
  after: string[];
  itemLabel: (field: string, item: string) => string;
}) {
  const { t } = useTranslation();
  const added = after.filter((item) => !before.includes(item));
  const removed = before.filter((item) => !after.includes(item));
  if (added.length === 0 && removed.length === 0) return <span className={styles.muted}>{t('conflict.same')}</span>;
  return (
    <ul className={styles.items}>
      {added.map((item) => (
        <li key={`+${item}`}>{t('conflict.added', { item: itemLabel(field, item) })}</li>
      ))}
      {removed.map((item) => (
        <li key={`-${item}`}>{t('conflict.removed', { item: itemLabel(field, item) })}</li>
      ))}
    </ul>
  );
}

/** One value: by the form's own label where it has one (a role's name for its id), else as the audit log shows it. */
function Scalar({
  text,
  context,
  itemLabel,
}: {
  text: string | null;
  context: ValueContext;
  itemLabel: (field: string, item: string) => string;
}) {
  const value = readAuditValue(text);
  if (value.kind === 'text') {
    const label = itemLabel(context.field, value.text);
    if (label !== value.text) return <>{label}</>;
  }
  return <Value text={text} context={context} />;
}

/** Each field before → after; a list field as what was added and what was taken away. */
function Fields({
  fields,
  targetType,
  itemLabel,
  fieldName,
}: {
  fields: readonly ConflictField[];
  targetType: string;
  itemLabel: (field: string, item: string) => string;
  fieldName?: ((field: string) => string | null) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const exists = (key: string) => i18n.exists(key);
  return (
    <dl className={styles.fields}>
      {fields.map((f) => {
        const context: ValueContext = { t, exists, language: i18n.language, field: f.field, targetType };
        const before = readAuditValue(f.before);
        const after = readAuditValue(f.after);
        return (
          <div key={f.field} className={styles.pair}>
            <dt className={styles.term}>{fieldName?.(f.field) ?? fieldLabel(t, exists, f.field)}</dt>
            <dd className={styles.value}>
              {before.kind !== 'text' && before.kind !== 'boolean' && after.kind === 'list' ? (
                <ListChange
                  field={f.field}
                  before={before.kind === 'list' ? before.items : []}
                  after={after.items}
                  itemLabel={itemLabel}
                />
              ) : (
                <>
                  <Scalar text={f.before} context={context} itemLabel={itemLabel} />
                  <span className={styles.arrow} aria-label={t('conflict.becomes')}>
                    →
                  </span>
                  <Scalar text={f.after} context={context} itemLabel={itemLabel} />
                </>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function Change({
  change,
  targetType,
  itemLabel,
  fieldName,
}: {
  change: ConflictChange;
  targetType: string;
  itemLabel: (field: string, item: string) => string;
  fieldName?: ((field: string) => string | null) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const operationKey = `audit.operation.${change.operation}`;
  return (
    <li className={styles.change}>
      <p className={styles.byline}>
        {t('conflict.byline', {
          who: change.actorName ?? (change.actorStaff ? t('audit.staffActor') : t('conflict.someone')),
          operation: i18n.exists(operationKey) ? t(operationKey as 'audit.none') : change.operation,
        })}{' '}
        · <time dateTime={change.at}>{formatDateTime(change.at, i18n.language)}</time>
      </p>
      {change.changes.length > 0 ? (
        <Fields fields={change.changes} targetType={targetType} itemLabel={itemLabel} fieldName={fieldName} />
      ) : null}
    </li>
  );
}

/**
 * The conflict notice of an edit form (docs/lists.md, Conflict notice): who changed the record and what
 * (each field before → after) beside the user's unsaved values, with "Reaplicar as minhas" and "Descartar as
 * minhas"; after a change that found nothing unsaved, only what changed and "Fechar". The heading takes
 * focus when a save was refused (the user just acted); a change arriving while the user edits is announced
 * without moving focus.
 */
export function ConflictNotice({
  conflict,
  mine,
  targetType,
  itemLabel = (_field, item) => item,
  fieldName,
  resolving = null,
  onReapply,
  onDiscard,
  onDismiss,
}: ConflictNoticeProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const theirsId = useId();
  const mineId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const refused = conflict.source === 'save';
  useEffect(() => {
    if (refused) heading.current?.focus();
  }, [refused]);
  const message = refused ? 'conflict.saveRefused' : conflict.kept ? 'conflict.liveKept' : 'conflict.liveRefreshed';
  return (
    <section
      className={conflict.kept ? styles.notice : `${styles.notice} ${styles.info}`}
      aria-labelledby={titleId}
      data-testid="conflict-notice"
    >
      <div role="alert">
        <h3 id={titleId} ref={heading} tabIndex={-1} className={styles.title}>
          {t('conflict.title')}
        </h3>
        <p className={styles.message}>{t(message)}</p>
      </div>
      <div className={styles.columns}>
        <section className={styles.column} aria-labelledby={theirsId}>
          <h4 id={theirsId} className={styles.heading}>
            {t('conflict.theirs')}
          </h4>
          {conflict.changes.length > 0 ? (
            <ol className={styles.changes}>
              {conflict.changes.map((change) => (
                <Change
                  key={change.id}
                  change={change}
                  targetType={targetType}
                  itemLabel={itemLabel}
                  fieldName={fieldName}
                />
              ))}
            </ol>
          ) : (
            <p className={styles.muted}>{t('conflict.noDetails')}</p>
          )}
        </section>
        {conflict.kept ? (
          <section className={styles.column} aria-labelledby={mineId}>
            <h4 id={mineId} className={styles.heading}>
              {t('conflict.mine')}
            </h4>
            {mine.length > 0 ? (
              <Fields fields={mine} targetType={targetType} itemLabel={itemLabel} fieldName={fieldName} />
            ) : (
              <p className={styles.muted}>{t('conflict.nothingMine')}</p>
            )}
          </section>
        ) : null}
      </div>
      <div className={styles.actions}>
        {conflict.kept ? (
          <>
            <Button
              variant="secondary"
              onPress={onDiscard}
              isDisabled={resolving === 'reapply'}
              isPending={resolving === 'discard'}
              pendingLabel={t('conflict.discarding')}
            >
              {t('conflict.discard')}
            </Button>
            <Button
              onPress={onReapply}
              isDisabled={resolving === 'discard'}
              isPending={resolving === 'reapply'}
              pendingLabel={t('conflict.reapplying')}
            >
              {t('conflict.reapply')}
            </Button>
          </>
        ) : (
          <Button variant="secondary" onPress={onDismiss}>
            {t('conflict.dismiss')}
          </Button>
        )}
      </div>
    </section>
  );
}
