import type { SupportPerson, SupportUser } from '../support/support-actors';

/** A person of a customer tenant as `supportSearch` lists them (contracts/openapi.yaml `SupportUser`). */
export function supportUser(overrides: Partial<SupportUser> = {}): SupportUser {
  return {
    id: 12,
    name: 'Joana Silva',
    username: 'joana.silva',
    email: 'joana@farmacia.test',
    tenantName: 'farmacia-central',
    tenantDeleted: false,
    role: { id: 2, name: 'operador', display_name: 'Operador' },
    blocked: false,
    twoFactorEnabled: false,
    twoFactorEnrolmentRequired: false,
    isConnected: false,
    lastSignInAt: '2026-11-27T12:04:55.000Z',
    deletedAt: null,
    ...overrides,
  };
}

/** The person page's answer (contracts/openapi.yaml `SupportPerson`): throttled, one open session. */
export function supportPerson(
  overrides: Partial<Omit<SupportPerson, 'user'>> & { user?: Partial<SupportUser> } = {},
): SupportPerson {
  const { user, ...rest } = overrides;
  return {
    user: supportUser(user),
    mustChangePassword: false,
    throttle: { throttled: true, retryAfter: 840, failures: 5 },
    attempts: [
      {
        id: 981,
        at: '2026-11-28T09:58:02.000Z',
        success: false,
        reason: 'wrong_password',
        address: '203.0.113.7',
        claimed_ip: '203.0.113.7',
      },
    ],
    sessions: [
      {
        id: '0b6f5c1e-2d1a-4f7e-9a55-3c1f0e8d2b71',
        device: 'Chrome 131 · Windows',
        user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0',
        address: '203.0.113.7',
        started_at: '2026-11-27T12:04:55.000Z',
        last_used_at: '2026-11-28T09:40:00.000Z',
        remember: false,
      },
    ],
    audit: [],
    resetLinks: { enabled: true },
    ...rest,
  };
}
