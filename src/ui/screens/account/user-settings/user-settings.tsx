import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getHref } from '../../../../domain/paths';
import { selectUser } from '../../../../machines/session/session-selectors';
import type { User } from '../../../../machines/session/session-storage';
import { userSettingsMachine } from '../../../../machines/account/user-settings.machine';
import { Badge } from '../../../components/badge';
import { Card } from '../../../components/card';
import { Stack } from '../../../components/layout';
import { LinkButton } from '../../../components/link';
import { Spinner } from '../../../components/spinner';
import { useServices, useSession } from '../../../hooks/services-context';
import { useOutcomeToast } from '../../../hooks/use-outcome-toast';
import { PasswordCard } from './password-card';
import { ProfileCard } from './profile-card';
import * as styles from './user-settings.css';

/**
 * `/user-settings`: the signed-in user's own name and email, password (strength meter, weak ones
 * refused with the reason; the session keeps working on the rotated token) and a pointer to the
 * two-factor settings.
 */
export default function UserSettingsScreen() {
  const { t } = useTranslation();
  const user = useSession(selectUser);
  if (!user) return <Spinner label={t('common.loading')} />;
  return <Settings user={user} />;
}

function Settings({ user }: { user: User }) {
  const { t } = useTranslation();
  const { clients, session } = useServices();
  const actor = useActorRef(userSettingsMachine, {
    input: { execute: clients.graphql.execute, userId: user.id, session },
  });
  const profile = useSelector(actor, (s) => s.context.profile);
  const password = useSelector(actor, (s) => s.context.password);
  const savingProfile = useSelector(actor, (s) => s.hasTag('savingProfile'));
  const changingPassword = useSelector(actor, (s) => s.hasTag('changingPassword'));
  // A changed password empties the fields (a new form instance).
  const [passwordForm, setPasswordForm] = useState(0);

  useOutcomeToast(actor, (outcome) => {
    if (outcome.ok && outcome.action === 'password') setPasswordForm((n) => n + 1);
  });

  return (
    <Stack gap="lg">
      <ProfileCard
        key={user.id}
        user={user}
        isSaving={savingProfile}
        feedback={profile}
        onSave={(name, email, currentPassword) =>
          actor.send({ type: 'settings.saveProfile', name, email, currentEmail: user.email, currentPassword })
        }
      />
      <PasswordCard
        key={passwordForm}
        isChanging={changingPassword}
        feedback={password}
        onChange={(value, confirmation, currentPassword) =>
          actor.send({ type: 'settings.changePassword', password: value, confirmation, currentPassword })
        }
      />
      <Card title={t('settings.security.heading')}>
        <p className={styles.muted}>
          <Badge tone={user.twoFactorEnabled ? 'success' : 'neutral'}>
            {user.twoFactorEnabled ? t('twoFactor.on') : t('twoFactor.off')}
          </Badge>{' '}
          {user.twoFactorEnabled ? t('settings.security.on') : t('settings.security.off')}
        </p>
        <div>
          <LinkButton href={getHref('two-factor')}>{t('settings.security.manage')}</LinkButton>
        </div>
      </Card>
    </Stack>
  );
}
