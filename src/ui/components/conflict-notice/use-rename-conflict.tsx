import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import type { AuditTargetType } from '../../../domain/audit';
import {
  renameStep,
  unsavedName,
  type NamedRecord,
  type NamedRecordsContext,
} from '../../../machines/shared/named-records.machine';
import type { NameDialogProps } from '../name-dialog';
import { ConflictNotice } from './conflict-notice';
import * as styles from './conflict-notice.css';

/** What the hook reads of a named-records machine's snapshot (src/machines/shared/named-records.machine.ts). */
interface NamedRecordsSnapshot {
  value: unknown;
  context: NamedRecordsContext<NamedRecord, unknown>;
}
const read = (s: unknown) => s as NamedRecordsSnapshot;
const selectConflict = (s: unknown) => read(s).context.conflict;
const selectDialog = (s: unknown) => read(s).context.dialog;
const selectDraft = (s: unknown) => read(s).context.draft;
const selectFormKey = (s: unknown) => read(s).context.formKey;
const selectStep = (s: unknown) => renameStep(read(s));

/**
 * The rename dialog's conflict notice (docs/lists.md, Conflict notice) for a {@link NameDialog}: the notice
 * above the field, the field read-only while it waits for a choice, the name typed reported to the machine,
 * and the key that starts the form again when the machine replaces the record (a reload).
 */
export function useRenameConflict(
  actor: AnyActorRef,
  targetType: AuditTargetType,
): Pick<NameDialogProps, 'notice' | 'locked' | 'onNameChange' | 'initialName'> & { formKey: number } {
  const conflict = useSelector(actor, selectConflict);
  const dialog = useSelector(actor, selectDialog);
  const draft = useSelector(actor, selectDraft);
  const formKey = useSelector(actor, selectFormKey);
  const step = useSelector(actor, selectStep);
  const locked = step === 'conflict' || step === 'reapplying' || step === 'discarding';
  const resolving = step === 'reapplying' ? 'reapply' : step === 'discarding' ? 'discard' : null;
  const renaming = dialog?.kind === 'rename' ? dialog.record : null;
  return {
    formKey,
    locked,
    initialName: draft ?? renaming?.name ?? '',
    onNameChange: renaming ? (name: string) => actor.send({ type: 'records.draft', name }) : undefined,
    notice:
      renaming && conflict ? (
        <div className={styles.spaced}>
          <ConflictNotice
            conflict={conflict}
            mine={unsavedName({ dialog, draft })}
            targetType={targetType}
            resolving={resolving}
            onReapply={() => actor.send({ type: 'conflict.reapply' })}
            onDiscard={() => actor.send({ type: 'conflict.discard' })}
            onDismiss={() => actor.send({ type: 'conflict.dismiss' })}
          />
        </div>
      ) : null,
  };
}
