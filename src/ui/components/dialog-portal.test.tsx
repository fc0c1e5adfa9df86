// @vitest-environment jsdom
import { CalendarDate } from '@internationalized/date';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { DateRangePicker, type DateRange } from './date-range-picker';
import { Modal } from './dialog';
import { MultiSelect } from './multi-select';
import { Select } from './select';
import { ToastRegion } from './toast';
import { createToastQueue, showToast } from './toast-queue';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

const plans = [
  { id: 'starter', label: 'Inicial' },
  { id: 'pro', label: 'Profissional' },
  { id: 'enterprise', label: 'Empresarial' },
];
const types = [
  { id: 'sent', label: 'Enviadas' },
  { id: 'delivered', label: 'Entregues' },
  { id: 'read', label: 'Lidas' },
];

/** A screen's dialog as the screens open one: a button, and their own state for open. */
function Screen({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Alterar plano</Button>
      <Modal title="Alterar plano" isOpen={open} onOpenChange={setOpen} footer={<Button>Salvar plano</Button>}>
        {children}
      </Modal>
    </>
  );
}

function PlanField({ onChange }: { onChange: (plan: string) => void }) {
  const [plan, setPlan] = useState('starter');
  return (
    <Select
      label="Plano"
      items={plans}
      value={plan}
      onChange={(key) => {
        setPlan(String(key));
        onChange(String(key));
      }}
    />
  );
}

/** The open dialog's layer, where React Aria's overlays must render to be above it and usable. */
const layerOf = (dialog: HTMLElement) => dialog.querySelector<HTMLElement>('[data-dialog-layer]');

describe('React Aria overlays inside a Modal (dialog-portal.tsx)', () => {
  it("a Select's list opens inside the dialog's layer, takes a click, and Escape closes only the list", async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <Screen>
        <PlanField onChange={onChange} />
      </Screen>,
    );
    await user.click(screen.getByRole('button', { name: 'Alterar plano' }));
    const dialog = screen.getByRole('dialog', { name: 'Alterar plano' });
    const trigger = within(dialog).getByRole('button', { name: /Plano/ });
    await user.click(trigger);
    const listbox = screen.getByRole('listbox');
    expect(layerOf(dialog)).toContainElement(listbox);
    await user.click(within(listbox).getByRole('option', { name: 'Empresarial' }));
    expect(onChange).toHaveBeenLastCalledWith('enterprise');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(trigger).toHaveTextContent('Empresarial');
    // React Aria gives focus back to the trigger in the next animation frame.
    await waitFor(() => expect(trigger).toHaveFocus());

    // From the keyboard: Escape in the open list closes the list, the dialog stays.
    await user.keyboard('{ArrowDown}');
    expect(layerOf(dialog)).toContainElement(screen.getByRole('listbox'));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Alterar plano' })).toBeInTheDocument();
    await waitFor(() => expect(trigger).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Alterar plano' })).toHaveFocus();
  });

  it('a Select chooses with the keyboard inside the dialog, and Tab in the open list stays with the list', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <Screen>
        <PlanField onChange={onChange} />
      </Screen>,
    );
    await user.click(screen.getByRole('button', { name: 'Alterar plano' }));
    const dialog = screen.getByRole('dialog', { name: 'Alterar plano' });
    within(dialog).getByRole('button', { name: /Plano/ }).focus();
    await user.keyboard('{ArrowDown}');
    const starter = screen.getByRole('option', { name: 'Inicial' });
    expect(layerOf(dialog)).toContainElement(starter);
    expect(starter).toHaveFocus();
    // The open list keeps Tab to itself (React Aria's containment), as it does outside a dialog.
    await user.tab();
    expect(starter).toHaveFocus();
    await user.tab({ shift: true });
    expect(starter).toHaveFocus();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('pro');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(dialog).toBeInTheDocument();
  });

  it("a MultiSelect's list opens inside the dialog's layer and keeps several choices", async () => {
    const onChange = vi.fn();
    const { user } = renderUi(
      <Screen>
        <MultiSelect label="Tipos" items={types} onChange={onChange} />
      </Screen>,
    );
    await user.click(screen.getByRole('button', { name: 'Alterar plano' }));
    const dialog = screen.getByRole('dialog', { name: 'Alterar plano' });
    const trigger = within(dialog).getByRole('button', { name: /Tipos/ });
    await user.click(trigger);
    const listbox = screen.getByRole('listbox');
    expect(layerOf(dialog)).toContainElement(listbox);
    await user.click(within(listbox).getByRole('option', { name: 'Enviadas' }));
    await user.click(within(listbox).getByRole('option', { name: 'Lidas' }));
    expect(onChange).toHaveBeenLastCalledWith(['sent', 'read']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(dialog).toBeInTheDocument();
    expect(trigger).toHaveTextContent('2 selecionados');
  });

  it("a DateRangePicker's calendar opens inside the dialog's layer and picks a range with clicks", async () => {
    const onChange = vi.fn();
    const march: DateRange = { start: new CalendarDate(2026, 3, 2), end: new CalendarDate(2026, 3, 15) };
    const { user } = renderUi(
      <Screen>
        <DateRangePicker label="Período" defaultValue={march} onChange={onChange} />
      </Screen>,
    );
    await user.click(screen.getByRole('button', { name: 'Alterar plano' }));
    const dialog = screen.getByRole('dialog', { name: 'Alterar plano' });
    await user.click(within(dialog).getByRole('button', { name: new RegExp(ptBR.ui.dateRange.openCalendar) }));
    const calendar = screen.getByRole('dialog', { name: /Período|março/ });
    expect(layerOf(dialog)).toContainElement(calendar);
    await user.click(within(calendar).getByRole('button', { name: /^[^,]+, 5 de março de 2026/ }));
    await user.click(within(calendar).getByRole('button', { name: /^[^,]+, 20 de março de 2026/ }));
    const last = onChange.mock.calls.at(-1)?.[0] as DateRange;
    expect(last.start.toString()).toBe('2026-03-05');
    expect(last.end.toString()).toBe('2026-03-20');
    expect(layerOf(dialog)?.querySelector('[role="dialog"]')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Alterar plano' })).toBeInTheDocument();
  });

  it('outside a Modal, the lists open under <body> as before', async () => {
    const { user } = renderUi(<PlanField onChange={() => undefined} />);
    await user.click(screen.getByRole('button', { name: /Plano/ }));
    expect(screen.getByRole('listbox').closest('dialog')).toBeNull();
  });

  it('a toast shown while a Modal is open is in its layer (above it, reachable), and under <body> once it closes', async () => {
    const queue = createToastQueue();
    const { user } = renderUi(
      <>
        <Screen>
          <p>Conteúdo</p>
        </Screen>
        <ToastRegion queue={queue} />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Alterar plano' }));
    const dialog = screen.getByRole('dialog', { name: 'Alterar plano' });
    act(() => {
      showToast(queue, { variant: 'error', title: 'Falha ao salvar' });
    });
    const region = screen.getByRole('region', { name: ptBR.ui.toast.region });
    expect(layerOf(dialog)).toContainElement(region);
    await user.click(within(region).getByRole('button', { name: ptBR.ui.toast.dismiss }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Alterar plano' })).toBeInTheDocument();

    act(() => {
      showToast(queue, { variant: 'error', title: 'Falha de novo' });
    });
    await user.click(within(dialog).getByRole('button', { name: ptBR.common.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const after = screen.getByRole('region', { name: ptBR.ui.toast.region });
    expect(after.closest('dialog')).toBeNull();
    expect(within(after).getByRole('alertdialog')).toHaveTextContent('Falha de novo');
  });

  // A ConfirmDialog is a modal <dialog> of its own, in the top layer above everything else and making the
  // rest inert, a Modal beneath it too: a toast anywhere else is behind it, out of reach and not announced.
  it.each([
    ['alone', false],
    ['opened inside a Modal', true],
  ])(
    'a toast shown while a ConfirmDialog is open (%s) is inside it, and back where it was once it closes',
    async (_label, nested) => {
      const queue = createToastQueue();
      function Confirming() {
        // Opened from a button, as the screens do: over the Modal when there is one.
        const [confirming, setConfirming] = useState(false);
        const ask = <Button onPress={() => setConfirming(true)}>Excluir</Button>;
        const confirm = (
          <ConfirmDialog
            isOpen={confirming}
            onOpenChange={setConfirming}
            title="Excluir empresa?"
            message="Esta ação não pode ser desfeita."
            onConfirm={() => undefined}
          />
        );
        return nested ? (
          <Modal title="Tenant" isOpen onOpenChange={() => undefined}>
            {ask}
            {confirm}
          </Modal>
        ) : (
          <>
            {ask}
            {confirm}
          </>
        );
      }
      const { user } = renderUi(
        <>
          <Confirming />
          <ToastRegion queue={queue} />
        </>,
      );
      await user.click(screen.getByRole('button', { name: 'Excluir' }));
      const confirm = screen.getByRole('alertdialog', { name: 'Excluir empresa?' });
      act(() => {
        showToast(queue, { variant: 'error', title: 'Falha ao excluir' });
      });
      const region = screen.getByRole('region', { name: ptBR.ui.toast.region });
      expect(confirm).toContainElement(region);
      await user.click(within(region).getByRole('button', { name: ptBR.ui.toast.dismiss }));
      expect(screen.getByRole('alertdialog', { name: 'Excluir empresa?' })).toBeInTheDocument();

      act(() => {
        showToast(queue, { variant: 'error', title: 'Falha de novo' });
      });
      await user.click(within(confirm).getByRole('button', { name: ptBR.common.cancel }));
      expect(screen.queryByRole('alertdialog', { name: 'Excluir empresa?' })).toBeNull();
      const after = screen.getByRole('region', { name: ptBR.ui.toast.region });
      if (nested) expect(layerOf(screen.getByRole('dialog', { name: 'Tenant' }))).toContainElement(after);
      else expect(after.closest('dialog')).toBeNull();
      expect(within(after).getByText('Falha de novo')).toBeInTheDocument();
    },
  );

  it('a toast keeps its time left when a Modal opens or closes (its region moves, it is not rendered again)', () => {
    vi.useFakeTimers();
    try {
      const queue = createToastQueue();
      const page = (open: boolean) => (
        <>
          <Modal title="Alterar plano" isOpen={open} onOpenChange={() => undefined}>
            <p>Conteúdo</p>
          </Modal>
          <ToastRegion queue={queue} />
        </>
      );
      const { rerender } = renderUi(page(false));
      act(() => {
        showToast(queue, { variant: 'success', title: 'Plano salvo' });
      });
      act(() => vi.advanceTimersByTime(3000));
      rerender(page(true));
      const dialog = screen.getByRole('dialog', { name: 'Alterar plano' });
      expect(layerOf(dialog)).toContainElement(screen.getByRole('alertdialog'));
      // A success toast lasts 5 s in all: 3 s before the dialog opened, 2.5 s after.
      act(() => vi.advanceTimersByTime(2500));
      expect(screen.queryByRole('alertdialog')).toBeNull();

      act(() => {
        showToast(queue, { variant: 'success', title: 'Outro' });
      });
      act(() => vi.advanceTimersByTime(3000));
      rerender(page(false));
      expect(screen.getByRole('alertdialog').closest('dialog')).toBeNull();
      act(() => vi.advanceTimersByTime(2500));
      expect(screen.queryByRole('alertdialog')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
