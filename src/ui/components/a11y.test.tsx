// @vitest-environment jsdom
import { CalendarDate } from '@internationalized/date';
import { act, cleanup, screen } from '@testing-library/react';
import axe from 'axe-core';
import type { ReactElement } from 'react';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { DataTable, type DataTableColumn } from './data-table';
import { DateRangePicker } from './date-range-picker';
import { Form, FormActions } from './form';
import { KpiCard } from './kpi-card';
import { MenuButton } from './menu-button';
import { MultiSelect } from './multi-select';
import { Pagination } from './pagination';
import { Select } from './select';
import { ConnectionStatus } from './status-dot';
import { renderUi } from '../test-support/test-utils';
import { PasswordField, TextField } from './text-field';
import { ToastRegion } from './toast';
import { VirtualizedDataTable } from './virtualized-table';
import { createToastQueue, showToast } from './toast-queue';

afterEach(cleanup);

/**
 * axe-core over the rendered document. jsdom computes no colours or layout, so `color-contrast`
 * is off here (the theme's contrast is checked by theme-contrast.test.ts) and `region` too (a
 * component is not a page: landmarks are the shell's job).
 */
async function violations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

interface Row {
  id: number;
  name: string;
  users: number;
}
const columns: DataTableColumn<Row>[] = [
  { id: 'name', header: 'Nome', cell: (r) => r.name, isRowHeader: true, allowsSorting: true },
  { id: 'users', header: 'Usuários', cell: (r) => r.users, align: 'end' },
];

const cases: Array<[string, () => ReactElement]> = [
  [
    'login-like form with errors',
    () => (
      <Form aria-label="Entrar" formError="Email ou/e senha errado(s)" validationErrors={{ email: 'Email inválido' }}>
        <TextField name="email" label="Email" type="email" isRequired />
        <PasswordField name="password" label="Senha" isRequired description="Mínimo de 8 caracteres" />
        <FormActions>
          <Button type="submit" isPending>
            Entrar
          </Button>
        </FormActions>
      </Form>
    ),
  ],
  [
    'data table with selection and pagination',
    () => (
      <>
        <DataTable
          aria-label="Tenants"
          columns={columns}
          rows={[{ id: 1, name: 'Acme', users: 3 }]}
          selectionMode="multiple"
          sortDescriptor={{ column: 'name', direction: 'ascending' }}
        />
        <Pagination
          page={2}
          pageSize={4}
          total={37}
          onPageChange={() => undefined}
          onPageSizeChange={() => undefined}
        />
      </>
    ),
  ],
  [
    'virtualized grid of 1,000 rows with a menu button per row',
    () => (
      <VirtualizedDataTable
        aria-label="Usuários"
        columns={[
          ...columns,
          {
            id: 'actions',
            header: 'Ações',
            cell: (r) => (
              <MenuButton
                label={`Ações de ${r.name}`}
                icon="…"
                items={() => [{ id: 'edit', label: 'Editar' }]}
                onAction={() => undefined}
              />
            ),
          },
        ]}
        rows={Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, name: `Tenant ${i + 1}`, users: i }))}
        height={600}
        sortDescriptor={{ column: 'name', direction: 'descending' }}
      />
    ),
  ],
  [
    'virtualized grid, empty',
    () => <VirtualizedDataTable aria-label="Usuários" columns={columns} rows={[]} height={600} />,
  ],
  [
    'selects, date range, KPI and connection state',
    () => (
      <>
        <Select label="Função" items={[{ id: 1, label: 'Administrador' }]} />
        <MultiSelect label="Tipos" items={[{ id: 'a', label: 'A' }]} defaultValue={['a']} />
        <DateRangePicker
          label="Período"
          defaultValue={{ start: new CalendarDate(2026, 3, 1), end: new CalendarDate(2026, 3, 31) }}
        />
        <KpiCard label="Receita" value="R$ 1.234,56" delta={0.1} />
        <ConnectionStatus state="connecting" />
      </>
    ),
  ],
  [
    'open confirm dialog',
    () => (
      <ConfirmDialog
        isOpen
        onOpenChange={() => undefined}
        onConfirm={() => undefined}
        title="Excluir"
        message="Tem certeza?"
        variant="danger"
      />
    ),
  ],
];

describe('axe-core (jsdom)', () => {
  it('does report problems in this setup (so a clean run means something)', async () => {
    renderUi(
      <>
        <input />
        <button type="button" />
      </>,
    );
    const found = await violations();
    expect(found.some((v) => v.startsWith('label:'))).toBe(true);
    expect(found.some((v) => v.startsWith('button-name:'))).toBe(true);
  });

  it.each(cases)('%s has no violations', async (_name, build) => {
    renderUi(build());
    expect(await violations()).toEqual([]);
  });

  it('an open menu of a MenuButton has no violations', async () => {
    const { user } = renderUi(
      <MenuButton
        label="Ações de Ana"
        icon="…"
        items={() => [
          { id: 'edit', label: 'Editar' },
          { id: 'delete', label: 'Excluir', isDanger: true },
        ]}
        onAction={() => undefined}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Ações de Ana' }));
    // The menu mounts when it opens (menu-button.tsx).
    expect(await screen.findByRole('menu', { name: 'Ações de Ana' })).toBeInTheDocument();
    expect(await violations()).toEqual([]);
  });

  it('an open Select popover and a toast have no violations', async () => {
    const queue = createToastQueue();
    const { user } = renderUi(
      <>
        <Select
          label="Função"
          items={[
            { id: 1, label: 'Administrador' },
            { id: 2, label: 'Operador' },
          ]}
        />
        <ToastRegion queue={queue} />
      </>,
    );
    await user.click(screen.getByRole('button', { name: /Função/ }));
    act(() => {
      showToast(queue, { variant: 'error', title: 'Falha ao salvar', description: 'Tente novamente.' });
    });
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    expect(await violations()).toEqual([]);
  });
});
