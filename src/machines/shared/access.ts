import type { Refusal } from '../../domain/escalation';
import type { I18nKey } from '../../domain/i18n-key';

/**
 * What the screens say when a rule of src/domain/escalation.ts refuses something, beside the control it
 * disables. The server refuses the same with a 403 whose reason request-error.ts maps to the same keys,
 * so a disabled control and a refused call explain themselves in the same words.
 */
export type EscalationRule = 'grant' | 'actOn' | 'editRole';

const KEYS = {
  grant: {
    'administrador-only': 'access.grantAdministrador',
    lacks: 'access.grantLacks',
    'own-role': 'access.ownRole',
  },
  actOn: {
    'administrador-only': 'access.actOnAdministrador',
    lacks: 'access.actOnLacks',
    'own-role': 'access.ownRole',
  },
  editRole: {
    'administrador-only': 'access.administradorOnly',
    lacks: 'access.permissionLacks',
    'own-role': 'access.ownRolePermissions',
  },
} as const satisfies Record<EscalationRule, Record<Refusal['kind'], I18nKey>>;

/** The i18n key of a refusal by `rule`, or null when nothing is refused. */
export function refusalKey(rule: EscalationRule, refusal: Refusal | null): I18nKey | null {
  return refusal === null ? null : KEYS[rule][refusal.kind];
}
