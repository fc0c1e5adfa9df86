import { useTranslation } from 'react-i18next';
import { selectLoginError } from '../../../machines/session/session-selectors';
import { useSession } from '../../hooks/services-context';

/** The sign-in's failure as text (the wait after too many failures in minutes), or null. */
export function useLoginErrorText(): string | null {
  const { t } = useTranslation();
  const error = useSession(selectLoginError);
  const retryAfter = useSession((s) => s.context.retryAfter);
  if (!error) return null;
  return t(error, { minutes: Math.max(1, Math.ceil((retryAfter ?? 60) / 60)) });
}
