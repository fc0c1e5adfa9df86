import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { getHref } from '../../../domain/paths';
import { SEARCH_LIMIT, type SupportUser } from '../../../machines/support/support-actors';
import { selectSearchStatus, supportSearchMachine } from '../../../machines/support/support-search.machine';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { Link } from '../../components/link';
import { SearchField } from '../../components/search-field';
import { VisuallyHidden } from '../../components/visually-hidden';
import { useServices } from '../../hooks/services-context';
import { useMediaQuery } from '../../hooks/use-media-query';
import { useNow } from '../../hooks/use-now';
import { useAddressSync } from '../../hooks/use-address-sync';
import { Blocked, Deleted, LastSignIn, Online, Tenant, TwoFactor } from './support-facts';
import * as styles from './support.css';

/** Below this width the table's facts stack in three columns (390 px phones), as the tenants list does. */
const NARROW_QUERY = '(max-width: 47.99rem)';

/** A person's page, remembering the search it was opened from (its back link returns there). */
function personHref(id: string | number, query: string): string {
  return getHref('support-person', { id }, { q: query === '' ? null : query });
}

/**
 * `/support` ("Atendimento", docs/support-desk.md): find the person who called, in any tenant, as one
 * types (support-search.machine.ts: paused, stale searches aborted, the query in the address), and
 * open their page. The table's rows open the page with Enter or a click; the name is a link too.
 */
export default function SupportScreen() {
  const { t, i18n } = useTranslation();
  const { clients } = useServices();
  const initialSearch = useSearch();
  const [, navigate] = useLocation();
  const actor = useActorRef(supportSearchMachine, { input: { rest: clients.rest, search: initialSearch } });
  useAddressSync(actor, { emitted: 'support.queryChanged', location: 'support.location' });
  const text = useSelector(actor, (s) => s.context.text);
  const query = useSelector(actor, (s) => s.context.query);
  const results = useSelector(actor, (s) => s.context.results);
  const error = useSelector(actor, (s) => s.context.error);
  const status = useSelector(actor, selectSearchStatus);
  const tableId = useId();
  const locale = i18n.language;
  const now = useNow();

  const narrow = useMediaQuery(NARROW_QUERY);
  const columns = useMemo<DataTableColumn<SupportUser>[]>(() => {
    const name: DataTableColumn<SupportUser> = {
      id: 'name',
      header: t('support.columns.name'),
      isRowHeader: true,
      cell: (u) => (
        <Link href={personHref(u.id, query)} aria-label={t('support.values.open', { name: u.name })}>
          {u.name}
        </Link>
      ),
    };
    const lastSignIn: DataTableColumn<SupportUser> = {
      id: 'lastSignIn',
      header: t('support.columns.lastSignIn'),
      cell: (u) => <LastSignIn user={u} t={t} locale={locale} now={now} />,
    };
    if (narrow)
      // A phone: who (with e-mail, username, tenant and role under the name), how they stand, when last in.
      return [
        {
          ...name,
          cell: (u) => (
            <span className={styles.stack}>
              {name.cell(u)}
              <span className={`${styles.secondary} ${styles.email}`}>{u.email}</span>
              <span className={styles.secondary}>{u.username}</span>
              <span className={styles.secondary}>
                {u.tenantName}
                {u.tenantDeleted ? ` (${t('support.values.tenantDeleted')})` : ''} · {u.role.display_name}
              </span>
            </span>
          ),
        },
        {
          id: 'status',
          header: t('support.columns.status'),
          cell: (u) => (
            // Stacked without their column headers, the facts say what they are ("Bloqueio: Não").
            <span className={styles.stack}>
              <span>
                <span className={styles.secondary}>{t('support.columns.blocked')}: </span>
                <Blocked user={u} t={t} />
              </span>
              <span>
                <span className={styles.secondary}>{t('support.columns.twoFactor')}: </span>
                <TwoFactor user={u} t={t} />
              </span>
              <Online user={u} t={t} />
              {u.deletedAt !== null ? <Deleted user={u} t={t} locale={locale} /> : null}
            </span>
          ),
        },
        lastSignIn,
      ];
    return [
      name,
      { id: 'email', header: t('support.columns.email'), cell: (u) => <span className={styles.email}>{u.email}</span> },
      { id: 'username', header: t('support.columns.username'), cell: (u) => u.username },
      { id: 'tenant', header: t('support.columns.tenant'), cell: (u) => <Tenant user={u} t={t} /> },
      { id: 'role', header: t('support.columns.role'), cell: (u) => u.role.display_name },
      { id: 'blocked', header: t('support.columns.blocked'), cell: (u) => <Blocked user={u} t={t} /> },
      { id: 'twoFactor', header: t('support.columns.twoFactor'), cell: (u) => <TwoFactor user={u} t={t} /> },
      { id: 'online', header: t('support.columns.online'), cell: (u) => <Online user={u} t={t} /> },
      lastSignIn,
      { id: 'deleted', header: t('support.columns.deleted'), cell: (u) => <Deleted user={u} t={t} locale={locale} /> },
    ];
  }, [t, locale, now, query, narrow]);

  const announcement =
    status === 'results'
      ? t('support.search.found', { count: results.length, query })
      : status === 'noMatch'
        ? t('support.search.noMatchTitle')
        : status === 'loading'
          ? t('support.search.searching')
          : '';

  return (
    <section className={styles.screen} aria-labelledby={`${tableId}-h`}>
      <VisuallyHidden>
        <h2 id={`${tableId}-h`}>{t('support.search.tableLabel')}</h2>
      </VisuallyHidden>
      <div className={styles.search} role="search">
        <SearchField
          label={t('support.search.label')}
          description={t('support.search.help')}
          placeholder={t('support.search.placeholder')}
          value={text}
          onChange={(value) => actor.send({ type: 'support.type', text: value })}
          autoFocus
        />
      </div>
      <VisuallyHidden>
        <span role="status">{announcement}</span>
      </VisuallyHidden>
      {status === 'empty' ? (
        <EmptyState title={t('support.search.emptyTitle')} description={t('support.search.emptyHint')} />
      ) : (
        <>
          <DataTable
            aria-label={t('support.search.tableLabel')}
            columns={columns}
            rows={results}
            status={status === 'error' ? 'error' : status === 'loading' ? 'loading' : 'ready'}
            onRowAction={(id) => navigate(personHref(id, query))}
            emptyState={
              <EmptyState
                title={t('support.search.noMatchTitle')}
                description={t('support.search.noMatchHint', { query })}
              />
            }
            errorState={
              <ErrorState
                title={error ? t(error.key) : undefined}
                description={error ? t(error.reason) : undefined}
                onRetry={() => actor.send({ type: 'support.retry' })}
              />
            }
          />
          {status === 'results' && results.length >= SEARCH_LIMIT ? (
            <p className={styles.note}>{t('support.search.limited', { count: SEARCH_LIMIT })}</p>
          ) : null}
        </>
      )}
    </section>
  );
}
