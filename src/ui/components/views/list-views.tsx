import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import type { I18nKey } from '../../../domain/i18n-key';
import { VIEW_COLUMNS, type SavedView, type ViewList, type ViewState } from '../../../domain/views';
import { selectHiddenColumns } from '../../../machines/preferences/preferences.machine';
import { selectActiveView, viewsMachine } from '../../../machines/views/views.machine';
import { Button } from '../button';
import { ConfirmDialog } from '../confirm-dialog';
import { lazyPart } from '../lazy-with-timeout';
import { MenuTriggerButton, type MenuOption } from '../menu';
import { usePreferences, useServices } from '../../hooks/services-context';
import { whenIdle } from '../../hooks/when-idle';
import { useOutcomeToast } from '../../hooks/use-outcome-toast';
import * as styles from './list-views.css';

/**
 * Saved views and the column chooser of a list (docs/lists.md, Views): the "Visões" menu (the user's views,
 * "Salvar visão atual…", rename, delete, "Usar como padrão") and "Colunas", for the users, tenants and audit
 * screens. The views machine (src/machines/views/views.machine.ts) talks to the server; this puts a chosen
 * view's query in the address (the screen's own address sync reloads the list) and its hidden columns on
 * the table. Without an open view the hidden columns are the user's preferences
 * (src/machines/preferences/preferences.machine.ts `hiddenColumns`).
 */

/*
 * The save/rename dialog and the chooser's checkboxes are chunks of their own (React Aria's checkbox
 * with them): the lists' first render does not wait for them (docs/performance.md, Bundle). Both chunks
 * are preloaded when the pointer or the focus reaches their button, else a few seconds after the bar
 * renders, when the main thread is idle: fetched and run at once, they competed with the first page's
 * answers and rows after a sign-in (docs/performance.md, Sign-in → 100 rows and the form, profiled).
 * Each part is rendered only while it is open: a chunk that
 * failed to arrive says so (with its retry) where the user asked for it, never in the bar of a list
 * whose dialog nobody opened.
 */
const ViewFormDialog = lazyPart(() => import('./view-form-dialog'));
const ColumnChooserPopover = lazyPart(() => import('./column-chooser-popover'));

const preloadForm = () => void ViewFormDialog.preload().catch(() => undefined);
const preloadChooser = () => void ColumnChooserPopover.preload().catch(() => undefined);
/** How long after the bar renders its parts are fetched if nobody reached for them. */
const LATE_PRELOAD_MS = 3000;

/** `preload` once the main thread is idle, {@link LATE_PRELOAD_MS} after the first render. */
function useLatePreload(preload: () => void) {
  useEffect(() => {
    let cancelIdle: () => void = () => undefined;
    const timer = window.setTimeout(() => {
      cancelIdle = whenIdle(preload, undefined, 0);
    }, LATE_PRELOAD_MS);
    return () => {
      window.clearTimeout(timer);
      cancelIdle();
    };
  }, [preload]);
}

/**
 * A part's fallback while its chunk is on its way: the button that opened it shows it pending (a named
 * spinner and `aria-busy`, src/ui/components/button.tsx), rather than being "expanded" with nothing shown.
 */
function PartPending({ onPending }: { onPending: (pending: boolean) => void }) {
  useLayoutEffect(() => {
    onPending(true);
    return () => onPending(false);
  }, [onPending]);
  return null;
}

/** The visible name of each list's columns (the tables' headings). */
const COLUMN_LABELS: Readonly<Record<ViewList, Readonly<Record<string, I18nKey>>>> = {
  users: {
    name: 'users.columns.name',
    email: 'users.columns.email',
    role: 'users.columns.role',
    department: 'users.columns.department',
    presence: 'users.columns.presence',
    status: 'users.columns.status',
    actions: 'users.columns.actions',
  },
  tenants: {
    name: 'tenants.screen.columns.name',
    cnpj: 'tenants.screen.columns.cnpj',
    plan: 'tenants.screen.columns.plan',
    userLimit: 'tenants.screen.columns.users',
    ticketLimit: 'tenants.screen.columns.ticketLimit',
    template: 'tenants.screen.columns.template',
    pool: 'tenants.screen.columns.pool',
    created_at: 'tenants.screen.columns.createdAt',
    deleted_at: 'tenants.screen.columns.deletedAt',
    actions: 'tenants.screen.columns.actions',
  },
  audit: {
    when: 'audit.columns.when',
    who: 'audit.columns.who',
    operation: 'audit.columns.operation',
    target: 'audit.columns.target',
    tenant: 'audit.columns.tenant',
    address: 'audit.columns.address',
    details: 'audit.columns.details',
  },
};

/** The list's part of a query string: `omit` keys (a tenant panel) left out. */
export function listPart(search: string, omit: readonly string[]): string {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  for (const key of omit) params.delete(key);
  return params.toString();
}

/** `search` with its list part replaced by `query`, the `omit` keys kept. */
export function withListPart(search: string, query: string, omit: readonly string[]): string {
  const current = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const next = new URLSearchParams(query);
  for (const key of omit) for (const value of current.getAll(key)) next.append(key, value);
  return next.toString();
}

export interface ListViewsOptions {
  /** Address keys that are not the list's (the tenants' open panel): neither saved nor replaced. */
  omit?: readonly string[];
}

/**
 * A list's views and hidden columns. Answers the columns to hide (give them to the table) and what the
 * bar below needs.
 */
export function useListViews(list: ViewList, { omit = [] }: ListViewsOptions = {}) {
  const { clients, preferences } = useServices();
  const search = useSearch();
  const [path, navigate] = useLocation();
  const omitKey = omit.join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `omit` is a literal per screen; its text is the key
  const query = useMemo(() => listPart(search, omit), [search, omitKey]);
  const actor = useActorRef(viewsMachine, { input: { rest: clients.rest, list, search: query } });
  const active = useSelector(actor, selectActiveView);
  // A bare address until the views are known: a default view may still replace the list's query.
  const opening = useSelector(actor, (s) => s.context.opensDefault);
  const stored = usePreferences((s) => selectHiddenColumns(s, list));
  // The open view's columns as the user has them now (changed in the chooser, not yet saved).
  const [working, setWorking] = useState<{ id: number; columns: readonly string[] } | null>(null);
  const latest = useRef({ search, path, navigate, omit });
  useEffect(() => {
    latest.current = { search, path, navigate, omit };
  });
  useEffect(() => {
    const subscription = actor.on('views.apply', ({ view }: { view: SavedView }) => {
      const { search: current, path: at, navigate: go, omit: keep } = latest.current;
      setWorking({ id: view.id, columns: view.state.columns });
      const next = withListPart(current, view.state.query, keep);
      // The default opened with the list replaces its address; a view chosen from the menu is a step back can undo.
      const opening = listPart(current, keep) === '';
      if (next !== listPart(current, [])) go(next === '' ? at : `${at}?${next}`, { replace: opening });
    });
    return () => subscription.unsubscribe();
  }, [actor]);

  const hidden = active && working?.id === active.id ? working.columns : active ? active.state.columns : stored;
  const setHidden = (columns: readonly string[]) => {
    if (active) setWorking({ id: active.id, columns });
    else preferences.send({ type: 'prefs.columns.set', list, columns });
  };
  const state: ViewState = { query, columns: [...hidden] };
  return { actor, list, hidden, setHidden, state, opening };
}

export type ListViews = ReturnType<typeof useListViews>;

/** The views menu and the column chooser, for the row above the table. */
export function ListViewsBar({ views }: { views: ListViews }) {
  return (
    <div className={styles.bar}>
      <ViewsMenu views={views} />
      <ColumnChooser list={views.list} hidden={views.hidden} onChange={views.setHidden} />
    </div>
  );
}

function ViewsMenu({ views }: { views: ListViews }) {
  const { t } = useTranslation();
  const { actor, state } = views;
  const saved = useSelector(actor, (s) => s.context.views);
  const active = useSelector(actor, selectActiveView);
  const failed = useSelector(actor, (s) => s.hasTag('failed'));
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const dialog = useSelector(actor, (s) => s.context.dialog);
  const nameError = useSelector(actor, (s) => s.context.nameError);
  useOutcomeToast(actor);

  const items: MenuOption[] = [
    ...saved.map((v) => ({
      id: `view:${v.id}`,
      label: v.is_default ? t('views.defaultMark', { name: v.name }) : v.name,
    })),
    ...(failed ? [{ id: 'reload', label: t('views.loadFailed') }] : []),
    ...(!failed && saved.length === 0 ? [{ id: 'none', label: t('views.none'), isDisabled: true }] : []),
    { id: 'save', label: t('views.save'), isDisabled: failed },
    ...(active
      ? [
          { id: 'update', label: t('views.update', { name: active.name }) },
          { id: 'rename', label: t('views.rename', { name: active.name }) },
          active.is_default
            ? { id: 'clearDefault', label: t('views.clearDefault', { name: active.name }) }
            : { id: 'setDefault', label: t('views.setDefault', { name: active.name }) },
          { id: 'delete', label: t('views.delete', { name: active.name }), isDanger: true },
        ]
      : []),
  ];
  const onAction = (id: string | number) => {
    const key = String(id);
    if (key.startsWith('view:')) actor.send({ type: 'views.apply', id: Number(key.slice(5)) });
    else if (key === 'reload') actor.send({ type: 'views.reload' });
    else if (key === 'save') actor.send({ type: 'views.saveOpen' });
    else if (active && key === 'update') actor.send({ type: 'views.replace', id: active.id, state });
    else if (active && key === 'rename') actor.send({ type: 'views.renameOpen', id: active.id });
    else if (active && key === 'delete') actor.send({ type: 'views.deleteOpen', id: active.id });
    else if (active && (key === 'setDefault' || key === 'clearDefault'))
      actor.send({ type: 'views.setDefault', id: active.id, isDefault: key === 'setDefault' });
  };
  const deleting = dialog?.kind === 'delete' ? saved.find((v) => v.id === dialog.id) : undefined;
  const renaming = dialog?.kind === 'rename' ? saved.find((v) => v.id === dialog.id) : undefined;
  const close = () => actor.send({ type: 'views.close' });
  const formOpen = dialog?.kind === 'save' || renaming !== undefined;
  const [formArriving, setFormArriving] = useState(false);
  // The dialog's chunk before it is asked for: opening it then shows it at once.
  useLatePreload(preloadForm);

  return (
    <>
      <MenuTriggerButton
        variant="secondary"
        items={items}
        menuLabel={t('views.menuLabel')}
        onAction={onAction}
        isPending={loading || busy || formArriving}
        pendingLabel={t('views.menu')}
        onPointerEnter={preloadForm}
        onFocus={preloadForm}
      >
        {active ? t('views.menuActive', { name: active.name }) : t('views.menu')}
      </MenuTriggerButton>
      {formOpen ? (
        <Suspense fallback={<PartPending onPending={setFormArriving} />}>
          <ViewFormDialog
            formKey={renaming ? `rename-${renaming.id}` : 'save'}
            title={renaming ? t('views.form.renameTitle') : t('views.form.saveTitle')}
            isOpen
            onClose={close}
            initialName={renaming?.name ?? ''}
            withDefault={!renaming}
            isPending={busy}
            nameError={nameError ? t(nameError) : null}
            submitLabel={renaming ? t('views.form.renameSubmit') : t('views.form.saveSubmit')}
            onSubmit={(name, isDefault) => actor.send({ type: 'views.submit', name, state, isDefault })}
          />
        </Suspense>
      ) : null}
      <ConfirmDialog
        isOpen={deleting !== undefined}
        onOpenChange={(open) => (open ? undefined : close())}
        title={t('views.confirmDelete.title')}
        message={t('views.confirmDelete.body', { name: deleting?.name ?? '' })}
        confirmLabel={t('views.confirmDelete.confirm')}
        variant="danger"
        isPending={busy}
        onConfirm={() => actor.send({ type: 'views.confirmDelete' })}
      />
    </>
  );
}

/**
 * "Colunas": a checkbox per column in a popover; the identifying column and the actions are shown checked
 * and cannot be unchecked (docs/lists.md, Views).
 */
export function ColumnChooser({
  list,
  hidden,
  onChange,
}: {
  list: ViewList;
  hidden: readonly string[];
  onChange: (hidden: readonly string[]) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [arriving, setArriving] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);
  const { fixed, hideable } = VIEW_COLUMNS[list];
  const labels = COLUMN_LABELS[list];
  const label = (id: string) => (labels[id] ? t(labels[id]) : id);
  const fixedColumn = (id: string) => ({
    id,
    label: t('views.columns.fixed', { name: label(id) }),
    shown: true,
    fixed: true,
  });
  // The chooser's chunk before it is asked for: opening it then shows it at once.
  useLatePreload(preloadChooser);
  return (
    <>
      <Button
        ref={ref}
        variant="secondary"
        aria-haspopup="dialog"
        aria-expanded={open && !arriving}
        isPending={arriving}
        pendingLabel={t('shell.loading')}
        onPress={() => setOpen(true)}
        onPointerEnter={preloadChooser}
        onFocus={preloadChooser}
      >
        {t('views.columns.button')}
      </Button>
      {open ? (
        <Suspense fallback={<PartPending onPending={setArriving} />}>
          <ColumnChooserPopover
            triggerRef={ref}
            title={t('views.columns.title')}
            columns={[
              ...fixed.filter((id) => id !== 'actions' && id !== 'details').map(fixedColumn),
              ...hideable.map((id) => ({ id, label: label(id), shown: !hidden.includes(id), fixed: false })),
              ...fixed.filter((id) => id === 'actions' || id === 'details').map(fixedColumn),
            ]}
            onShownChange={(id, shown) =>
              onChange(shown ? hidden.filter((c) => c !== id) : hideable.filter((c) => c === id || hidden.includes(c)))
            }
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
