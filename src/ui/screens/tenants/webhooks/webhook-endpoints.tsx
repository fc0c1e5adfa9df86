import { useActorRef, useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatDateTime } from '../../../../domain/format';
import { historyHref } from '../../../../machines/webhooks/webhook-history-query';
import {
  WEBHOOK_TYPES,
  WEBHOOK_URL_MAX,
  type CampaignStatusType,
  type WebhookEndpoint,
} from '../../../../machines/webhooks/webhook-endpoint-checks';
import {
  orderedTypes,
  unsavedEndpointFields,
  webhookEndpointsMachine,
} from '../../../../machines/webhooks/webhook-endpoints.machine';
import type { ConflictField } from '../../../../machines/shared/conflict';
import { ConflictNotice } from '../../../components/conflict-notice/conflict-notice';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Modal } from '../../../components/dialog';
import { ErrorState } from '../../../components/error-state';
import { Form, FormActions } from '../../../components/form';
import { Link } from '../../../components/link';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { useServices } from '../../../hooks/services-context';
import * as styles from './webhook-endpoints.css';

type EndpointsActor = ActorRefFrom<typeof webhookEndpointsMachine>;

/** The status types as native checkboxes in a fieldset, with the refusal under them. */
function TypeChecks({
  value,
  onChange,
  error,
  isDisabled,
}: {
  value: readonly CampaignStatusType[];
  onChange: (next: CampaignStatusType[]) => void;
  error: string | null;
  isDisabled: boolean;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  return (
    <fieldset
      className={styles.fieldset}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className={styles.legend}>{t('webhooks.endpoints.form.types')}</legend>
      <div className={styles.checks}>
        {WEBHOOK_TYPES.map((type) => (
          <label key={type} className={styles.check}>
            <input
              type="checkbox"
              className={styles.checkbox}
              checked={value.includes(type)}
              disabled={isDisabled}
              onChange={(event) =>
                onChange(orderedTypes(event.target.checked ? [...value, type] : value.filter((item) => item !== type)))
              }
            />
            {t(`webhooks.types.${type}`)}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The form's words for the fields a conflict notice lists. */
const FIELD_NAMES: Partial<
  Record<
    string,
    'webhooks.endpoints.form.url' | 'webhooks.endpoints.form.types' | 'webhooks.endpoints.form.description'
  >
> = {
  url: 'webhooks.endpoints.form.url',
  types: 'webhooks.endpoints.form.types',
  description: 'webhooks.endpoints.form.description',
};

const sameFields = (a: readonly ConflictField[], b: readonly ConflictField[]) =>
  a.length === b.length && a.every((f, i) => f.field === b[i]?.field && f.after === b[i]?.after);

/** Add or change an endpoint: address, types, description; a stale save offers to save over or drop. */
function EndpointFormDialog({ actor }: { actor: EndpointsActor }) {
  const { t } = useTranslation();
  const form = useSelector(actor, (s) => s.context.form);
  const errors = useSelector(actor, (s) => s.context.errors);
  const conflict = useSelector(actor, (s) => s.context.conflict);
  const mine = useSelector(actor, (s) => unsavedEndpointFields(s.context), sameFields);
  const saving = useSelector(actor, (s) => s.matches('saving'));
  const open = useSelector(actor, (s) => s.matches('editing') || s.matches('saving'));
  if (!form) return null;
  const creating = form.id === null;
  const text = (key: keyof typeof errors) => {
    const error = errors[key];
    return error ? t(error) : null;
  };
  return (
    <Modal
      title={creating ? t('webhooks.endpoints.form.createTitle') : t('webhooks.endpoints.form.editTitle')}
      isOpen={open}
      isPending={saving}
      onClose={() => actor.send({ type: 'endpoints.cancel' })}
      size="md"
    >
      <Form
        validationBehavior="aria"
        formError={text('form')}
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'endpoints.submit' });
        }}
      >
        {conflict ? (
          <ConflictNotice
            conflict={conflict}
            mine={mine}
            targetType="webhook_endpoint"
            fieldName={(field) => (FIELD_NAMES[field] ? t(FIELD_NAMES[field]) : null)}
            itemLabel={(field, item) => (field === 'types' ? t(`webhooks.types.${item as CampaignStatusType}`) : item)}
            resolving={saving ? 'reapply' : null}
            onReapply={() => actor.send({ type: 'endpoints.overwrite' })}
            onDiscard={() => actor.send({ type: 'endpoints.discard' })}
            onDismiss={() => actor.send({ type: 'endpoints.discard' })}
          />
        ) : null}
        <TextField
          label={t('webhooks.endpoints.form.url')}
          description={t('webhooks.endpoints.form.urlHint')}
          type="url"
          name="url"
          value={form.url}
          maxLength={WEBHOOK_URL_MAX}
          autoFocus
          isRequired
          isDisabled={saving}
          isInvalid={Boolean(errors.url)}
          errorMessage={text('url') ?? undefined}
          onChange={(url) => actor.send({ type: 'endpoints.change', patch: { url } })}
        />
        <TypeChecks
          value={form.types}
          error={text('types')}
          isDisabled={saving}
          onChange={(types) => actor.send({ type: 'endpoints.change', patch: { types } })}
        />
        <TextField
          label={t('webhooks.endpoints.form.description')}
          name="description"
          value={form.description}
          isDisabled={saving}
          isInvalid={Boolean(errors.description)}
          errorMessage={text('description') ?? undefined}
          onChange={(description) => actor.send({ type: 'endpoints.change', patch: { description } })}
        />
        <FormActions>
          <Button variant="secondary" onPress={() => actor.send({ type: 'endpoints.cancel' })} isDisabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" isPending={saving} pendingLabel={t('common.loading')} isDisabled={conflict !== null}>
            {creating ? t('webhooks.endpoints.form.create') : t('webhooks.endpoints.form.save')}
          </Button>
        </FormActions>
      </Form>
    </Modal>
  );
}

/** The signing secret, once: copy it now, it is not shown again. */
function SecretDialog({ actor }: { actor: EndpointsActor }) {
  const { t } = useTranslation();
  const secret = useSelector(actor, (s) => s.context.secret);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  if (!secret) return null;
  const done = () => {
    setCopied(null);
    actor.send({ type: 'endpoints.secretSeen' });
  };
  return (
    <Modal
      title={t('webhooks.endpoints.secret.title')}
      isOpen
      role="alertdialog"
      isKeyboardDismissDisabled
      onClose={done}
      size="md"
      footer={<Button onPress={done}>{t('webhooks.endpoints.secret.done')}</Button>}
    >
      <p className={styles.muted}>{t('webhooks.endpoints.secret.for', { url: secret.url })}</p>
      <p className={styles.secret} data-testid="webhook-secret">
        {secret.secret}
      </p>
      <p role="alert">
        <strong>{t('webhooks.endpoints.secret.once')}</strong>
      </p>
      <div className={styles.actions}>
        <Button
          variant="secondary"
          onPress={() => {
            navigator.clipboard
              ?.writeText(secret.secret)
              .then(() => setCopied('yes'))
              .catch(() => setCopied('no'));
            if (!navigator.clipboard) setCopied('no');
          }}
        >
          {t('webhooks.endpoints.secret.copy')}
        </Button>
        <span role="status" className={styles.muted}>
          {copied === 'yes'
            ? t('webhooks.endpoints.secret.copied')
            : copied === 'no'
              ? t('webhooks.endpoints.secret.copyFailed')
              : ''}
        </span>
      </div>
    </Modal>
  );
}

function EndpointCard({
  endpoint,
  actor,
  tenantName,
}: {
  endpoint: WebhookEndpoint;
  actor: EndpointsActor;
  tenantName: string;
}) {
  const { t, i18n } = useTranslation();
  const failure = useSelector(actor, (s) =>
    s.context.actionError?.id === endpoint.id ? s.context.actionError.error : null,
  );
  const acting = useSelector(actor, (s) => s.matches('acting') && s.context.action?.endpoint.id === endpoint.id);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const toggle = endpoint.active ? 'pause' : 'resume';
  return (
    <li className={styles.card} aria-label={endpoint.url}>
      <p className={styles.url}>{endpoint.url}</p>
      <div className={styles.badges}>
        <Badge tone={endpoint.active ? 'success' : 'warning'}>
          {endpoint.active ? t('webhooks.endpoints.active') : t('webhooks.endpoints.paused')}
        </Badge>
        {orderedTypes(endpoint.types).map((type) => (
          <Badge key={type}>{t(`webhooks.types.${type}`)}</Badge>
        ))}
      </div>
      {endpoint.description ? <p className={styles.muted}>{endpoint.description}</p> : null}
      <p className={styles.muted}>{t('webhooks.endpoints.secretHint', { hint: endpoint.secret_hint })}</p>
      {endpoint.previous_secret_expires_at ? (
        <p className={styles.muted}>
          {t('webhooks.endpoints.previousSecret', {
            at: formatDateTime(endpoint.previous_secret_expires_at, i18n.language),
          })}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button
          size="sm"
          variant="secondary"
          isDisabled={busy}
          onPress={() => actor.send({ type: 'endpoints.edit', id: endpoint.id })}
        >
          {t('webhooks.endpoints.edit')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          isDisabled={busy && !acting}
          isPending={acting}
          pendingLabel={t('common.loading')}
          onPress={() => actor.send({ type: 'endpoints.act', action: toggle, id: endpoint.id })}
        >
          {t(`webhooks.endpoints.${toggle}`)}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          isDisabled={busy}
          onPress={() => actor.send({ type: 'endpoints.act', action: 'rotate', id: endpoint.id })}
        >
          {t('webhooks.endpoints.rotate')}
        </Button>
        <Button
          size="sm"
          variant="danger"
          isDisabled={busy}
          onPress={() => actor.send({ type: 'endpoints.act', action: 'delete', id: endpoint.id })}
        >
          {t('webhooks.endpoints.delete')}
        </Button>
        <Link href={historyHref(tenantName, { endpoint: endpoint.id })}>{t('webhooks.endpoints.history')}</Link>
      </div>
      {failure ? (
        <p className={styles.error} role="alert">
          {t(failure.key)} {t(failure.reason)}
        </p>
      ) : null}
    </li>
  );
}

function ActionConfirm({ actor }: { actor: EndpointsActor }) {
  const { t } = useTranslation();
  const action = useSelector(actor, (s) => (s.matches('confirming') || s.matches('acting') ? s.context.action : null));
  const acting = useSelector(actor, (s) => s.matches('acting'));
  if (!action || (action.kind !== 'delete' && action.kind !== 'rotate')) return null;
  const kind = action.kind;
  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => {
        if (!open) actor.send({ type: 'endpoints.cancel' });
      }}
      title={t(`webhooks.endpoints.confirm.${kind}Title`)}
      message={t(`webhooks.endpoints.confirm.${kind}Message`, { url: action.endpoint.url })}
      confirmLabel={t(`webhooks.endpoints.confirm.${kind}`)}
      variant={kind === 'delete' ? 'danger' : 'primary'}
      isPending={acting}
      onConfirm={() => actor.send({ type: 'endpoints.confirm' })}
    />
  );
}

/**
 * A tenant's webhook endpoints in the tenant panel's Webhooks tab (docs/webhooks.md): each with its
 * address, types, state, secret hint and the previous secret's grace; add, change, pause or resume,
 * a new secret (shown once) and delete; a link to each one's history.
 */
export default function WebhookEndpoints({ tenantName }: { tenantName: string }) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const actor = useActorRef(webhookEndpointsMachine, { input: { rest: clients.rest, tenantName } });
  const endpoints = useSelector(actor, (s) => s.context.endpoints);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const headingId = useId();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.header}>
        <h3 id={headingId} className={styles.heading}>
          {t('webhooks.endpoints.title')}
        </h3>
        <div className={styles.actions}>
          <Link href={historyHref(tenantName)}>{t('webhooks.endpoints.allHistory')}</Link>
          <Button
            size="sm"
            isDisabled={busy || loadError !== null}
            onPress={() => actor.send({ type: 'endpoints.add' })}
          >
            {t('webhooks.endpoints.add')}
          </Button>
        </div>
      </div>
      {loading && endpoints.length === 0 ? (
        <Spinner label={t('common.loading')} />
      ) : loadError ? (
        <ErrorState
          title={t(loadError.key)}
          description={t(loadError.reason)}
          onRetry={() => actor.send({ type: 'endpoints.reload' })}
        />
      ) : endpoints.length === 0 ? (
        <p className={styles.muted}>{t('webhooks.endpoints.empty')}</p>
      ) : (
        <ul className={styles.cards} aria-labelledby={headingId}>
          {endpoints.map((endpoint) => (
            <EndpointCard key={endpoint.id} endpoint={endpoint} actor={actor} tenantName={tenantName} />
          ))}
        </ul>
      )}
      <EndpointFormDialog actor={actor} />
      <SecretDialog actor={actor} />
      <ActionConfirm actor={actor} />
    </section>
  );
}
