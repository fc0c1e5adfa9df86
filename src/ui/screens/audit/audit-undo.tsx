import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../domain/format';
import type { AuditRecord } from '../../../machines/audit/audit.machine';
import { selectUndo, undoMachine } from '../../../machines/audit/undo.machine';
import { Button } from '../../components/button';
import { fieldLabel } from '../../components/audit-record/audit-detail';
import * as styles from '../../components/audit-record/audit-record.css';
import { useServices } from '../../hooks/services-context';
import { useOutcomeToast } from '../../hooks/use-outcome-toast';

/** A recorded value as words: a JSON string without its quotes, nothing as "—", anything else as recorded. */
function shown(text: string | null, none: string): string {
  if (text === null) return none;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : text;
  } catch {
    return text;
  }
}

/**
 * "Desfazer" on an audit record's detail (docs/lists.md, Undo on the server): offered while the record's
 * `undoable_until` is ahead, after a reload and to another administrador alike; the outcome stays in the
 * dialog (undone, the fields that changed since, expired, undone already) besides its toast. The list
 * reloads after an undo, so the record shows who undid it.
 */
export function AuditUndo({ record, onUndone }: { record: AuditRecord; onUndone: () => void }) {
  const { t, i18n } = useTranslation();
  const { clients } = useServices();
  const headingId = useId();
  const actor = useActorRef(undoMachine, { input: { rest: clients.rest, recordId: record.id } });
  const { state, conflicts, by } = useSelector(actor, selectUndo);
  useOutcomeToast(actor, (outcome) => {
    if (outcome.ok) onUndone();
  });
  const until = record.undoable_until === null ? null : Date.parse(record.undoable_until);
  // The clock when the detail opened, moved once when the window closes, so the offer goes with it.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null || until <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), until - now + 50);
    return () => clearTimeout(timer);
  }, [until, now]);
  const open = until !== null && until > now;
  const offer = open && (state === 'idle' || state === 'undoing' || state === 'failed');
  if (record.undo_of === null && record.undone_by === null && !open && state === 'idle') return null;
  const none = t('audit.none');
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.heading}>
        {t('undo.detail.heading')}
      </h3>
      {record.undo_of !== null ? (
        <p className={styles.value}>{t('undo.detail.undoOf', { id: record.undo_of })}</p>
      ) : null}
      {record.undone_by !== null ? (
        <p className={styles.value}>{t('undo.detail.undoneBy', { id: record.undone_by })}</p>
      ) : null}
      {offer && until !== null ? (
        <p className={styles.value}>
          {t('undo.detail.until', { time: formatDateTime(new Date(until).toISOString(), i18n.language) })}
        </p>
      ) : null}
      <div role="status" className={styles.value}>
        {state === 'undone' && by !== null ? t('undo.detail.undone', { id: by }) : null}
        {state === 'expired' ? t('undo.detail.expired') : null}
        {state === 'alreadyUndone' ? t('undo.detail.alreadyUndone') : null}
        {state === 'refused' ? t('undo.detail.refused') : null}
        {state === 'failed' ? t('undo.detail.failed') : null}
        {state === 'conflict' ? t('undo.detail.conflict') : null}
      </div>
      {state === 'conflict' ? (
        <ul className={styles.list}>
          {conflicts.flatMap((row) =>
            row.fields.map((f) => (
              <li key={`${row.record_id}-${f.field}`}>
                {t('undo.detail.conflictField', {
                  field: fieldLabel(t, (key) => i18n.exists(key), f.field),
                  recorded: shown(f.recorded, none),
                  current: shown(f.current, none),
                })}
              </li>
            )),
          )}
        </ul>
      ) : null}
      {offer ? (
        <div className={styles.detailActions}>
          <Button
            variant="primary"
            size="sm"
            isPending={state === 'undoing'}
            onPress={() => actor.send({ type: 'undo' })}
          >
            {t('undo.action')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
