import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { guardedLazy } from '../../components/preloadable';
import { ensureAppLocale } from '../../../i18n/runtime';
import * as styles from './login.css';

// Enrolment at sign-in is rare: its QR code and recovery codes, with the /two-factor screen's messages
// (the complete locale), load only when a sign-in asks for them, off the login page's budget.
// The guard's core with this screen's own notice and button: lazyPart's error state (icons, its
// styles) would weigh on every login page for a part few sign-ins open.
export const EnrolmentParts = guardedLazy(
  () => Promise.all([import('../../components/two-factor-enrolment'), ensureAppLocale()]).then(([parts]) => parts),
  (retry) => <EnrolmentPartError onRetry={retry} />,
);

/**
 * In place of the enrolment parts when their code did not arrive: announced, with a retry. Its words
 * are the login page's own (the core messages, src/i18n/runtime.ts): the complete ones come with the
 * very chunk that failed.
 */
export function EnrolmentPartError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.notice} role="alert">
      <p>{t('apiErrors.network')}</p>
      <Button variant="secondary" onPress={onRetry}>
        {t('pages.serverError.action')}
      </Button>
    </div>
  );
}
