import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { getHref } from '../../../domain/paths';
import {
  ATTENTION_KINDS,
  homeMachine,
  nothingNeedsAttention,
  type AttentionItem,
  type AttentionKindName,
  type HomeActor,
} from '../../../machines/home/home.machine';
import { selectUser } from '../../../machines/session/session-selectors';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { SuccessIcon } from '../../components/icons';
import { Skeleton } from '../../components/skeleton';
import { usePreferences, useServices, useSession } from '../../hooks/services-context';
import { StarIcon } from '../../shell/icons';
import * as styles from './home.css';

/** Where each kind's item is fixed (tenant-relative): the tenant, its instances panel, the support desk's person. */
function itemHref(kind: AttentionKindName, item: AttentionItem): string {
  switch (kind) {
    case 'tenantsOverUserLimit':
      return getHref('tenants', undefined, { search: item.tenantName });
    case 'failedSyncs':
    case 'disconnectedConnections':
      return getHref('tenants', undefined, { panel: 'instances', tenant: item.tenantName });
    case 'lockedAccounts':
      return getHref('support-person', { id: item.id });
  }
}

function ItemDetail({ kind, item }: { kind: AttentionKindName; item: AttentionItem }) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (kind !== 'tenantsOverUserLimit') parts.push(item.tenantName);
  if (item.instanceName !== null) parts.push(t('home.attention.instance', { name: item.instanceName }));
  if (item.count !== null && item.limit !== null)
    parts.push(t('home.attention.users', { count: item.count, limit: item.limit }));
  if (item.retryAfter !== null)
    parts.push(t('home.attention.unlocksIn', { count: Math.max(1, Math.ceil(item.retryAfter / 60)) }));
  return <span className={styles.detail}>{parts.join(' · ')}</span>;
}

/** The kinds the caller may see that have items, each with its first items linking to where they are fixed. */
function AttentionList({ actor }: { actor: HomeActor }) {
  const { t } = useTranslation();
  const attention = useSelector(actor, (s) => s.context.attention);
  const error = useSelector(actor, (s) => s.context.error);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const loading = useSelector(actor, (s) => s.hasTag('loading'));

  if (failed && attention === null)
    return (
      <ErrorState
        title={t('home.attention.error')}
        description={error ? t(error.reason) : undefined}
        onRetry={() => actor.send({ type: 'home.retry' })}
      />
    );
  if (attention === null) return <Skeleton lines={4} />;
  if (nothingNeedsAttention(attention))
    return (
      <EmptyState
        icon={<SuccessIcon size={24} />}
        title={t('home.attention.empty')}
        description={t('home.attention.emptyHint')}
      />
    );
  return (
    <div className={styles.kinds} aria-busy={loading}>
      {ATTENTION_KINDS.map((kind) => {
        const found = attention[kind];
        if (!found || found.total === 0) return null;
        const headingId = `attention-${kind}`;
        return (
          <section key={kind} className={styles.kind} aria-labelledby={headingId}>
            <h3 id={headingId} className={styles.kindTitle}>
              {t(`home.attention.kinds.${kind}`)} <span className={styles.count}>{found.total}</span>
            </h3>
            <ul className={styles.items}>
              {found.items.map((item) => (
                <li key={item.id}>
                  <Link href={itemHref(kind, item)} className={styles.item}>
                    <span className={styles.itemName}>{item.name}</span>
                    <ItemDetail kind={kind} item={item} />
                  </Link>
                </li>
              ))}
            </ul>
            {found.total > found.items.length ? (
              <p className={styles.more}>{t('home.attention.more', { count: found.total - found.items.length })}</p>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

/**
 * `/`: what needs attention now (docs/panel.md, Home; contract extension `attention`), the user's
 * starred pages as tiles, and who is signed in, in which tenant.
 */
export default function HomeScreen() {
  const { t } = useTranslation();
  const { tenant, clients } = useServices();
  const user = useSession(selectUser);
  const starred = usePreferences((s) => s.context.starred);
  const actor = useActorRef(homeMachine, { input: { execute: clients.graphql.execute } });

  return (
    <div className={styles.grid}>
      <Card title={t('home.attention.title')} className={styles.wide}>
        <AttentionList actor={actor} />
      </Card>
      <Card title={t('home.starred')} className={styles.wide}>
        {starred.length === 0 ? (
          <EmptyState icon={<StarIcon size={24} />} title={t('home.noStarred')} description={t('home.noStarredHint')} />
        ) : (
          <ul className={styles.tiles}>
            {starred.map((page) => (
              <li key={page.href}>
                <Link href={page.href} className={styles.tile}>
                  <StarIcon size={20} className={styles.star} />
                  {t(page.titleKey as never)}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title={t('home.greeting', { name: user?.name ?? '' })}>
        <dl className={styles.facts}>
          <dt>{t('home.email')}</dt>
          <dd>{user?.email}</dd>
          <dt>{t('home.role')}</dt>
          <dd>{user?.role.display_name ?? user?.role.name}</dd>
          <dt>{t('home.department')}</dt>
          <dd>{user?.userDepartment?.name ?? t('home.noDepartment')}</dd>
          <dt>{t('home.tenant')}</dt>
          <dd>{tenant()}</dd>
        </dl>
      </Card>
    </div>
  );
}
