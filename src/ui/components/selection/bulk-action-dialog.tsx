import { useActorRef, useSelector } from '@xstate/react';
import { useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../domain/i18n-key';
import {
  bulkActionMachine,
  bulkProgress,
  bulkResultRows,
  dryRunGroups,
  type BulkActionInput,
  type BulkSelection,
  type BulkTarget,
  type DryRow,
} from '../../../machines/shared/bulk-action.machine';
import type { OverlayControl } from '../../../machines/shared/bulk-run';
import { Button } from '../button';
import { cx } from '../class-names';
import { useModalDialog } from '../dialog';
import * as dialogStyles from '../dialog.css';
import { LAYER_ATTRIBUTE, openDialogLayer } from '../dialog-layer';
import { AlertIcon, SuccessIcon } from '../icons';
import { ProgressBar } from '../progress-bar';
import { Spinner } from '../spinner';
import * as styles from './selection.css';

export interface BulkActionDialogProps {
  rest: BulkActionInput['rest'];
  overlay: OverlayControl;
  target: BulkTarget;
  selection: BulkSelection;
  /** The action as people read it ("Bloquear", "Ativar Chatbot"). */
  actionLabel: string;
  /** The run is over (closed at any step); `changed`: some row changed, so the list reloads. */
  onClose: (changed: boolean) => void;
}

const KNOWN_REASONS = new Set([
  'failed',
  'not_found',
  'forbidden',
  'own_account',
  'deleted',
  'tenant_deleted',
  'conflict',
]);

/** A refusal's words: the reason's own text when this build knows it, the server's message beside it. */
function useReason() {
  const { t } = useTranslation();
  return (reason: string | null | undefined, message?: string | null) => {
    const key = (
      KNOWN_REASONS.has(reason ?? '') ? `bulkAction.reason.${reason}` : 'bulkAction.reason.other'
    ) as I18nKey;
    return message && reason === 'forbidden' ? `${t(key)}: ${message}` : t(key);
  };
}

const rowName = (row: { id: number; name: string | null | undefined }, t: (key: I18nKey, o: object) => string) =>
  row.name ?? t('bulkAction.row', { id: row.id });

/**
 * Every bulk action's dialog (docs/lists.md, Bulk actions), over the shared bulk machine: gathering the
 * selection and the dry run (with Cancelar), the review (would change / already as asked / refused with
 * why) with "Aplicar a N", the run's progress with Cancelar (stops between chunks), and the result per
 * row with "Tentar de novo" for the failed ones. A `<dialog>` named by its title; progress and outcome
 * are announced through a live region.
 */
export function BulkActionDialog({ rest, overlay, target, selection, actionLabel, onClose }: BulkActionDialogProps) {
  const { t } = useTranslation();
  const reason = useReason();
  const actor = useActorRef(bulkActionMachine, { input: { rest, overlay, target, selection } });
  const snapshot = useSelector(actor, (s) => s);
  const titleId = useId();
  const layer = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => (layer.current ? openDialogLayer(layer.current) : undefined), []);
  const running = snapshot.matches('running');
  const changed = snapshot.context.run.entries.some(
    (entry) => entry.result?.status === 'ok' && entry.result.value.outcome === 'changed',
  );
  const close = () => {
    if (running) return;
    actor.send({ type: 'bulk.close' });
    onClose(changed);
  };
  const { dialogProps } = useModalDialog({
    onClose: close,
    isDismissable: false,
    isKeyboardDismissDisabled: running,
    initialFocus: (dialog) => dialog.querySelector<HTMLElement>('[data-initial]'),
  });
  const state = (['resolving', 'dryRunning', 'review', 'running', 'done', 'failed'] as const).find((s) =>
    snapshot.matches(s),
  );
  const groups = dryRunGroups(snapshot);
  const progress = bulkProgress(snapshot);
  const results = bulkResultRows(snapshot);
  const failures = results.filter((row) => row.outcome === 'failed').length;
  const number = (n: number) => String(n);

  // A long list scrolls inside the dialog: focusable and named, so the keyboard scrolls it too.
  const list = (rows: DryRow[], withReason: boolean, label: string) => (
    <ul className={styles.list} tabIndex={0} aria-label={label}>
      {rows.map((row) => (
        <li key={row.id}>
          {rowName(row, t)}
          {withReason ? <span className={styles.muted}> — {reason(row.reason, row.message)}</span> : null}
        </li>
      ))}
    </ul>
  );

  return (
    <dialog
      {...dialogProps}
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      className={cx(dialogStyles.modal, dialogStyles.size.md)}
    >
      <div className={dialogStyles.header}>
        <h2 id={titleId} className={dialogStyles.title}>
          {t(`bulkAction.title.${state ?? 'done'}`, { action: actionLabel })}
        </h2>
      </div>
      <div className={dialogStyles.body}>
        <div role="status" aria-live="polite" className={styles.groups}>
          {state === 'resolving' || state === 'dryRunning' ? <Spinner label={t('common.loading')} /> : null}
          {state === 'failed' && snapshot.context.error ? (
            <p className={styles.status}>
              <AlertIcon size={16} />
              {t(snapshot.context.error.key)} {t(snapshot.context.error.reason)}
            </p>
          ) : null}
          {state === 'review' ? (
            <>
              {groups.change.length === 0 ? <p>{t('bulkAction.nothing')}</p> : null}
              {(['change', 'unchanged', 'refused'] as const).map((group) =>
                groups[group].length > 0 ? (
                  <section key={group} aria-label={t(`bulkAction.group.${group}`, { n: number(groups[group].length) })}>
                    <h3 className={styles.groupTitle}>
                      {t(`bulkAction.group.${group}`, { n: number(groups[group].length) })}
                    </h3>
                    {list(
                      groups[group],
                      group === 'refused',
                      t(`bulkAction.group.${group}`, { n: number(groups[group].length) }),
                    )}
                  </section>
                ) : null,
              )}
            </>
          ) : null}
          {state === 'running' || state === 'done' ? (
            <ProgressBar
              label={t('bulk.progress', { done: number(progress.done), total: number(progress.total) })}
              value={progress.done}
              maxValue={Math.max(1, progress.total)}
              hideValue
            />
          ) : null}
          {state === 'done' && snapshot.context.run.outcome ? (
            <p>
              {t(`bulk.outcome.${snapshot.context.run.outcome}`)}{' '}
              {failures > 0 ? t('bulk.failedCount', { count: failures }) : null}
            </p>
          ) : null}
          {state === 'done' ? (
            <ul className={styles.list} tabIndex={0} aria-label={t('bulkAction.title.done', { action: actionLabel })}>
              {results.map((row) => (
                <li key={row.id}>
                  <span className={styles.status}>
                    {row.outcome === 'changed' || row.outcome === 'unchanged' ? (
                      <SuccessIcon size={16} />
                    ) : (
                      <AlertIcon size={16} />
                    )}
                    {rowName(row, t)}: {t(`bulkAction.outcome.${row.outcome}`)}
                    {row.outcome === 'refused' ? ` — ${reason(row.reason)}` : null}
                    {row.failure ? ` — ${t(row.failure)}` : null}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
      <div className={dialogStyles.footer}>
        {state === 'review' ? (
          <>
            <Button variant="secondary" data-initial="" onPress={close}>
              {t('bulkAction.cancel')}
            </Button>
            <Button
              variant={target.kind === 'users' && target.action === 'delete' ? 'danger' : 'primary'}
              isDisabled={groups.change.length === 0}
              onPress={() => actor.send({ type: 'bulk.confirm' })}
            >
              {t('bulkAction.confirm', { n: number(groups.change.length) })}
            </Button>
          </>
        ) : state === 'running' ? (
          <Button
            variant="secondary"
            data-initial=""
            isDisabled={snapshot.context.cancelling}
            onPress={() => actor.send({ type: 'bulk.cancel' })}
          >
            {t('bulkAction.cancel')}
          </Button>
        ) : state === 'done' || state === 'failed' ? (
          <>
            {state === 'failed' || failures > 0 ? (
              <Button variant="secondary" onPress={() => actor.send({ type: 'bulk.retry' })}>
                {state === 'done' ? t('bulk.retryFailed') : t('bulkAction.retry')}
              </Button>
            ) : null}
            <Button data-initial="" onPress={close}>
              {t('bulkAction.close')}
            </Button>
          </>
        ) : (
          <Button variant="secondary" data-initial="" onPress={close}>
            {t('bulkAction.cancel')}
          </Button>
        )}
      </div>
      <div ref={layer} {...{ [LAYER_ATTRIBUTE]: '' }} className={dialogStyles.layer} />
    </dialog>
  );
}
