import { ApiError } from '../../api/api-error';
import type { components } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import { reasonKeyOf } from '../shared/request-error';

/**
 * The desk's refusals told apart (contracts/openapi.yaml `Conflict.error` and `ServiceUnavailable.status`;
 * docs/support-desk.md): each says what to do next. A 403 reads through reasonKeyOf (the no-way-up
 * reasons of server/src/access/escalation.ts); anything else by its status.
 */
/**
 * Every `Conflict.error` of the contract but `stale`, the saved views' (src/machines/views/ reads those) and the
 * webhooks' (`webhook_…`, the webhook screens read those): the
 * record below must name each one (the type checker says so). The desk's actions send no version
 * (docs/lists.md, Versions), so none is refused as stale.
 */
export type SupportConflict = Exclude<
  NonNullable<components['schemas']['Conflict']['error']>,
  'stale' | 'view_name_taken' | 'view_limit_reached' | `webhook_${string}`
>;

const CONFLICT_KEYS: Readonly<Record<SupportConflict, I18nKey>> = {
  own_account: 'support.refusals.own_account',
  not_throttled: 'support.refusals.not_throttled',
  already: 'support.refusals.already',
  deleted: 'support.refusals.deleted',
  not_deleted: 'support.refusals.not_deleted',
  email_taken: 'support.refusals.email_taken',
  username_taken: 'support.refusals.username_taken',
  tenant_deleted: 'support.refusals.tenant_deleted',
  user_limit_reached: 'support.refusals.user_limit_reached',
  blocked: 'support.refusals.blocked',
};

export const SUPPORT_CONFLICTS = Object.keys(CONFLICT_KEYS) as SupportConflict[];

function field(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * Why a desk action was refused, as an i18n key.
 *
 * @param error - what the call threw
 * @param notFound - the key of a 404 when the action names more than the person (an ended session)
 */
export function supportRefusalKey(error: unknown, notFound?: I18nKey): I18nKey {
  if (error instanceof ApiError && error.status === 409) {
    const code = field(error.body, 'error');
    if (typeof code === 'string' && code in CONFLICT_KEYS) return CONFLICT_KEYS[code as SupportConflict];
  }
  if (error instanceof ApiError && error.status === 503 && field(error.body, 'status') === 'mail_disabled')
    return 'support.refusals.mail_disabled';
  if (error instanceof ApiError && error.status === 404 && notFound !== undefined) return notFound;
  return reasonKeyOf(error);
}
