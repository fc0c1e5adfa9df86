import { createActor } from 'xstate';
import type { AppClients } from '../../../app/app-services';
import { forgotPasswordMachine } from '../../../machines/password-reset/forgot-password.machine';
import type { ForgotActor } from './forgot-step';

/**
 * Starts "Esqueci minha senha" (src/machines/password-reset/forgot-password.machine.ts), which asks at
 * once whether reset links can be sent. A chunk of its own, loaded once the login page is up: nothing
 * of it is needed to sign in.
 */
export function startForgotPassword(rest: AppClients['rest']): ForgotActor {
  return createActor(forgotPasswordMachine, { input: { rest } }).start();
}
