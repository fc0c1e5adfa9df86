import type { Anonymous, Caller } from '../access/caller';
import { guardService } from '../access/guard';
import { invalid } from '../base/domain-error';
import { isValidEmail } from '../../../src/domain/email';
import { isMailLocale, type MailLocale } from '../mail/templates';
import { MAX_PASSWORD_LENGTH } from './password-policy';
import type { PasswordReset } from './password-reset';

/**
 * The public side of reset links (docs/support-desk.md, Forgot password; ./password-reset.ts): whether
 * links can be sent, asking for one, and using one. REST only (`/api/auth/password-reset…`).
 */
export function createPasswordResetService(reset: PasswordReset) {
  return guardService('passwordReset', {
    async status(_caller: Anonymous | Caller): Promise<{ enabled: boolean }> {
      return { enabled: reset.enabled() };
    },

    async request(
      caller: Anonymous | Caller,
      input: { email: string; locale?: string | null; address: string },
    ): Promise<{ message: string }> {
      if (!isValidEmail(input.email)) throw invalid('email', 'email must be a valid address of at most 254 characters');
      const locale: MailLocale = isMailLocale(input.locale) ? input.locale : 'pt-BR';
      void caller;
      return reset.request({ email: input.email, locale, address: input.address });
    },

    async confirm(
      caller: Anonymous | Caller,
      input: { token: string; password: string },
    ): Promise<{ message: string }> {
      if ([...input.password].length > MAX_PASSWORD_LENGTH)
        throw invalid('password', `password must have at most ${String(MAX_PASSWORD_LENGTH)} characters`);
      return reset.confirm(input, caller.origin);
    },
  });
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
