// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { Modal, placePopover, Popover } from './dialog';
import { MenuTriggerButton } from './menu';
import { RadioGroup } from './radio-group';
import { renderUi } from '../test-support/test-utils';
import { TextField } from './text-field';

afterEach(cleanup);

/** A button that opens the dialog, as the screens do it: their state says whether it is open. */
function EditUser() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Editar usuário</Button>
      <Modal
        title="Editar usuário"
        isOpen={open}
        onOpenChange={setOpen}
        footer={(close) => <Button onPress={close}>Salvar</Button>}
      >
        <TextField label="Nome" autoFocus />
      </Modal>
    </>
  );
}

function Harness({
  isDismissable,
  isKeyboardDismissDisabled,
}: {
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Abrir
      </button>
      <Modal
        title="Preferências"
        isOpen={open}
        onOpenChange={setOpen}
        isDismissable={isDismissable}
        isKeyboardDismissDisabled={isKeyboardDismissDisabled}
        footer={(close) => (
          <button type="button" onClick={close}>
            Cancelar
          </button>
        )}
      >
        {() => <input aria-label="Nome" />}
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('opens from its button as a dialog named by its title, with focus inside', async () => {
    const { user } = renderUi(<EditUser />);
    await user.click(screen.getByRole('button', { name: 'Editar usuário' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar usuário' });
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveFocus();
  });

  it('traps Tab inside and closes with Escape, returning focus to the button that opened it', async () => {
    const { user } = renderUi(<EditUser />);
    const trigger = screen.getByRole('button', { name: 'Editar usuário' });
    await user.click(trigger);
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 4; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(trigger).toHaveFocus();
  });

  it('closes from the named close button and from footer actions', async () => {
    const { user } = renderUi(<EditUser />);
    await user.click(screen.getByRole('button', { name: 'Editar usuário' }));
    await user.click(screen.getByRole('button', { name: ptBR.common.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Editar usuário' }));
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows its content while open', () => {
    const onOpenChange = vi.fn();
    renderUi(
      <Modal title="Detalhes" isOpen onOpenChange={onOpenChange}>
        Conteúdo
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'Detalhes' })).toHaveTextContent('Conteúdo');
  });

  it('cannot be closed while pending: no close button, Escape and footer close() reach nobody; afterwards they do', async () => {
    const onOpenChange = vi.fn();
    const pending = (isPending: boolean) => (
      <Modal
        title="Salvando"
        isOpen
        isPending={isPending}
        onOpenChange={onOpenChange}
        footer={(close) => <Button onPress={close}>Fechar pelo rodapé</Button>}
      >
        <TextField label="Nome" autoFocus />
      </Modal>
    );
    const { user, rerender } = renderUi(pending(true));
    expect(screen.queryByRole('button', { name: ptBR.common.close })).toBeNull();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Fechar pelo rodapé' }));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Salvando' })).toBeInTheDocument();

    rerender(pending(false));
    await user.click(screen.getByRole('button', { name: ptBR.common.close }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    onOpenChange.mockClear();
    await user.click(screen.getByRole('button', { name: 'Fechar pelo rodapé' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

  // A close request the platform carries out without a `cancel` first (in Chromium, a second Escape or
  // Android back with no user activation since the last refused one) closes the <dialog> by itself.
  it('stays open while pending when the platform closes the <dialog> by itself, and tells the caller once it may close', async () => {
    const onOpenChange = vi.fn();
    const pending = (isPending: boolean) => (
      <Modal title="Salvando" isOpen isPending={isPending} onOpenChange={onOpenChange}>
        <TextField label="Nome" autoFocus />
      </Modal>
    );
    const { rerender } = renderUi(pending(true));
    const closedByThePlatform = () => {
      const dialog = screen.getByRole('dialog', { name: 'Salvando' }) as HTMLDialogElement;
      dialog.removeAttribute('open');
      fireEvent(dialog, new Event('close'));
      return dialog;
    };
    const dialog = closedByThePlatform();
    expect(onOpenChange).not.toHaveBeenCalled();
    // Still shown, so the page behind stays inert and the pending dialog does not vanish while mounted.
    expect(dialog.open).toBe(true);

    rerender(pending(false));
    closedByThePlatform();
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

  it('a pending ConfirmDialog closed by the platform is shown again, modal, and tells the caller once it may close', () => {
    const onOpenChange = vi.fn();
    const confirm = (isPending: boolean) => (
      <ConfirmDialog
        isOpen
        isPending={isPending}
        onOpenChange={onOpenChange}
        title="Excluir usuário?"
        message="Não pode ser desfeito."
        onConfirm={() => undefined}
      />
    );
    const { rerender } = renderUi(confirm(true));
    const dialog = screen.getByRole('alertdialog', { name: 'Excluir usuário?' }) as HTMLDialogElement;
    // Closed twice in a row, as two refused close requests can be: shown again each time.
    for (const _ of [1, 2]) {
      dialog.removeAttribute('open');
      fireEvent(dialog, new Event('close'));
      expect(dialog.open).toBe(true);
    }
    expect(onOpenChange).not.toHaveBeenCalled();

    rerender(confirm(false));
    dialog.removeAttribute('open');
    fireEvent(dialog, new Event('close'));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    // Not shown again: the caller closes it.
    expect(dialog.open).toBe(false);
  });

  it('calls onClose when asked to close, never while pending', async () => {
    const onClose = vi.fn();
    const dialog = (isPending: boolean) => (
      <Modal title="Editar" isOpen isPending={isPending} onClose={onClose}>
        <TextField label="Nome" autoFocus />
      </Modal>
    );
    const { user, rerender } = renderUi(dialog(true));
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    rerender(dialog(false));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: ptBR.common.close }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('is a <dialog> named by its title, takes focus, closes with Escape and gives focus back to the opener', async () => {
    const { user } = renderUi(<Harness />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Abrir' }));
    const dialog = screen.getByRole('dialog', { name: 'Preferências' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'Preferências' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Abrir' })).toHaveFocus();
  });

  it('closes from its named close button, from the footer and from a click on the backdrop, not from a click inside', async () => {
    const { user } = renderUi(<Harness />);
    const opener = screen.getByRole('button', { name: 'Abrir' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Fechar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(opener);
    await user.click(screen.getByRole('textbox', { name: 'Nome' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    const dialog = screen.getByRole('dialog');
    fireEvent.pointerDown(dialog, { clientX: 4000, clientY: 10 });
    fireEvent.click(dialog, { clientX: 4000, clientY: 10 });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays open on Escape or an outside click when told so', async () => {
    const { user } = renderUi(<Harness isDismissable={false} isKeyboardDismissDisabled />);
    await user.click(screen.getByRole('button', { name: 'Abrir' }));
    await user.keyboard('{Escape}');
    const dialog = screen.getByRole('dialog');
    fireEvent.pointerDown(dialog, { clientX: 4000, clientY: 10 });
    fireEvent.click(dialog, { clientX: 4000, clientY: 10 });
    expect(screen.getByRole('dialog', { name: 'Preferências' })).toBeInTheDocument();
  });

  it('Tab from the last control goes to the first, Shift+Tab from the first (or the dialog) to the last; a radio group is one stop', async () => {
    const { user } = renderUi(
      <>
        <button type="button">Antes</button>
        <Modal title="Preferências" isOpen footer={<Button>Salvar</Button>}>
          <RadioGroup
            label="Tema"
            value="dark"
            onChange={() => undefined}
            options={[
              { value: 'light', label: 'Claro' },
              { value: 'dark', label: 'Escuro' },
              { value: 'auto', label: 'Automático' },
            ]}
          />
        </Modal>
        <button type="button">Depois</button>
      </>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Preferências' });
    const close = screen.getByRole('button', { name: ptBR.common.close });
    const save = screen.getByRole('button', { name: 'Salvar' });
    expect(dialog).toHaveFocus();
    await user.tab({ shift: true });
    expect(save).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Escuro' })).toHaveFocus();
    await user.tab();
    expect(save).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('radio', { name: 'Escuro' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(save).toHaveFocus();
  });

  it('renders under <body> with a layer of its own, and the page keeps its room for the scroll bar while open', async () => {
    const root = document.documentElement;
    // A page with a 15 px scroll bar, as a desktop browser has (jsdom has no layout).
    Object.defineProperty(root, 'clientWidth', { configurable: true, value: window.innerWidth - 15 });
    try {
      const { user } = renderUi(<EditUser />);
      await user.click(screen.getByRole('button', { name: 'Editar usuário' }));
      const dialog = screen.getByRole('dialog', { name: 'Editar usuário' });
      expect(dialog.parentElement).toBe(document.body);
      expect(dialog).toHaveAttribute('aria-modal', 'true');
      expect(dialog.querySelector('[data-dialog-layer]')).not.toBeNull();
      expect(root.style.getPropertyValue('scrollbar-gutter')).toBe('stable');
      await user.keyboard('{Escape}');
      expect(root.style.getPropertyValue('scrollbar-gutter')).toBe('');
    } finally {
      Reflect.deleteProperty(root, 'clientWidth');
    }
  });

  it('opened from a menu item, gives focus back to the menu button when it closes', async () => {
    function FromMenu() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <MenuTriggerButton
            aria-label="Ações de Ana"
            menuLabel="Ações"
            items={[{ id: 'rename', label: 'Alterar nome' }]}
            onAction={() => setOpen(true)}
          >
            Ações
          </MenuTriggerButton>
          <Modal title="Alterar nome" isOpen={open} onOpenChange={setOpen}>
            <TextField label="Nome" autoFocus />
          </Modal>
        </>
      );
    }
    const { user } = renderUi(<FromMenu />);
    const button = screen.getByRole('button', { name: 'Ações de Ana' });
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Alterar nome' }));
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Alterar nome' })).toBeNull();
    expect(button).toHaveFocus();
  });

  it('keeps focus on a native field that took it while mounting, and still returns it to the opener', async () => {
    function Native() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Abrir
          </button>
          <Modal title="Nome" isOpen={open} onOpenChange={setOpen}>
            {/* A native input's autoFocus runs while React mounts it, before the dialog's effect. */}
            <input aria-label="Nome" autoFocus />
          </Modal>
        </>
      );
    }
    const { user } = renderUi(<Native />);
    const opener = screen.getByRole('button', { name: 'Abrir' });
    await user.click(opener);
    expect(screen.getByRole('textbox', { name: 'Nome' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(opener).toHaveFocus();
  });

  it('leaves Tab to a dialog opened inside it: a ConfirmDialog in a Modal keeps Tab to its own buttons', async () => {
    const { user } = renderUi(
      <Modal title="Tenant acme" isOpen>
        <ConfirmDialog
          isOpen
          onOpenChange={() => undefined}
          onConfirm={() => undefined}
          title="Descartar alterações?"
          message="Fechar descarta as alterações."
          confirmLabel="Descartar e fechar"
        />
      </Modal>,
    );
    const cancel = screen.getByRole('button', { name: ptBR.common.cancel });
    const discard = screen.getByRole('button', { name: 'Descartar e fechar' });
    expect(cancel).toHaveFocus();
    await user.tab();
    expect(discard).toHaveFocus();
    await user.tab();
    expect(cancel).toHaveFocus();
    await user.tab({ shift: true });
    expect(discard).toHaveFocus();
  });
});

/** A trigger whose box the test sets (jsdom has no layout), and a Popover hanging from it while open. */
function AnchoredPopover({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" ref={ref} onClick={() => setOpen(true)}>
        Atividade
      </button>
      {open ? (
        <Popover
          triggerRef={ref}
          // Start: placed by `left`, which jsdom can show (its viewport has no width for `right`).
          placement="bottom start"
          aria-label="Atividade recente"
          onClose={() => {
            onClose();
            setOpen(false);
          }}
        >
          <p>Nada novo</p>
        </Popover>
      ) : null}
    </>
  );
}

const nextFrame = () => new Promise<void>((done) => requestAnimationFrame(() => done()));

describe('Popover', () => {
  /** Gives `element` the box `box` (a DOMRect) until `box` is changed. */
  function boxOf(element: Element, box: { top: number; left: number; width: number; height: number }) {
    element.getBoundingClientRect = () =>
      DOMRect.fromRect({ x: box.left, y: box.top, width: box.width, height: box.height });
  }

  it('follows its trigger when the page moves it, with no resize or scroll event (a row laid out anew)', async () => {
    const { user } = renderUi(<AnchoredPopover onClose={() => undefined} />);
    const trigger = screen.getByRole('button', { name: 'Atividade' });
    const box = { top: 100, left: 900, width: 32, height: 32 };
    boxOf(trigger, box);
    await user.click(trigger);
    const popover = screen.getByRole('dialog', { name: 'Atividade recente' });
    // 4 px under the trigger, its start edge on the trigger's.
    expect(popover.style.top).toBe('136px');
    expect(popover.style.left).toBe('900px');

    Object.assign(box, { top: 300, left: 120 });
    await nextFrame();
    await nextFrame();
    expect(popover.style.top).toBe('336px');
    expect(popover.style.left).toBe('120px');
    expect(popover).toBeInTheDocument();
  });

  it('closes when its trigger is no longer rendered, or has left the page', async () => {
    const onClose = vi.fn();
    const { user } = renderUi(<AnchoredPopover onClose={onClose} />);
    const trigger = screen.getByRole('button', { name: 'Atividade' });
    await user.click(trigger);
    expect(screen.getByRole('dialog', { name: 'Atividade recente' })).toBeInTheDocument();
    await nextFrame();
    expect(onClose).not.toHaveBeenCalled();
    // display: none at a breakpoint (jsdom has no checkVisibility of its own).
    Object.assign(trigger, { checkVisibility: () => false });
    await nextFrame();
    await nextFrame();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Atividade recente' })).not.toBeInTheDocument();

    Object.assign(trigger, { checkVisibility: () => true });
    await user.click(trigger);
    expect(screen.getByRole('dialog', { name: 'Atividade recente' })).toBeInTheDocument();
    trigger.remove();
    await nextFrame();
    await nextFrame();
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('dialog', { name: 'Atividade recente' })).not.toBeInTheDocument();
  });
});

/** A trigger React renders anew as another element (`key`: a narrow layout's own button), with a Popover hanging from it. */
function RemountedTriggerPopover({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [narrow, setNarrow] = useState(false);
  return (
    <>
      <button type="button" key={narrow ? 'narrow' : 'wide'} ref={ref} onClick={() => setOpen(true)}>
        Atividade
      </button>
      <button type="button" onClick={() => setNarrow(true)}>
        Estreitar
      </button>
      {open ? (
        <Popover
          triggerRef={ref}
          placement="bottom start"
          aria-label="Atividade recente"
          onClose={() => {
            onClose();
            setOpen(false);
          }}
        >
          <button type="button" onClick={() => setNarrow(true)}>
            Estreitar daqui
          </button>
        </Popover>
      ) : null}
    </>
  );
}

describe('Popover whose trigger is rendered anew', () => {
  it('follows the new trigger element instead of closing as if the trigger were gone', async () => {
    const onClose = vi.fn();
    const { user } = renderUi(<RemountedTriggerPopover onClose={onClose} />);
    const first = screen.getByRole('button', { name: 'Atividade' });
    first.getBoundingClientRect = () => DOMRect.fromRect({ x: 900, y: 100, width: 32, height: 32 });
    await user.click(first);
    const popover = screen.getByRole('dialog', { name: 'Atividade recente' });
    expect(popover.style.left).toBe('900px');
    // The page (a media query) renders the trigger anew: the old element leaves, a new one takes the ref.
    await user.click(screen.getByRole('button', { name: 'Estreitar daqui' }));
    const second = screen.getByRole('button', { name: 'Atividade', hidden: true });
    expect(second).not.toBe(first);
    second.getBoundingClientRect = () => DOMRect.fromRect({ x: 120, y: 300, width: 32, height: 32 });
    await nextFrame();
    await nextFrame();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Atividade recente' })).toBe(popover);
    expect(popover.style.top).toBe('336px');
    expect(popover.style.left).toBe('120px');
  });
});

describe('Popover after it closes', () => {
  it('reads its trigger no more: no animation frame is left running', async () => {
    const { user } = renderUi(<AnchoredPopover onClose={() => undefined} />);
    const trigger = screen.getByRole('button', { name: 'Atividade' });
    const reads = vi.fn(() => DOMRect.fromRect({ x: 900, y: 100, width: 32, height: 32 }));
    trigger.getBoundingClientRect = reads;
    await user.click(trigger);
    await nextFrame();
    await nextFrame();
    expect(reads).toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Atividade recente' })).not.toBeInTheDocument();
    reads.mockClear();
    await nextFrame();
    await nextFrame();
    await nextFrame();
    expect(reads).not.toHaveBeenCalled();
  });
});

describe('placePopover', () => {
  /** A trigger whose box is given, and a popover holding `content` px whose styles cap it at `cap` px. */
  function geometry({ top, bottom }: { top: number; bottom: number }, content: number, cap = 320) {
    const trigger = document.createElement('button');
    trigger.getBoundingClientRect = () => DOMRect.fromRect({ x: 300, y: top, width: 44, height: bottom - top });
    const popover = document.createElement('div');
    Object.defineProperty(popover, 'offsetHeight', {
      get: () =>
        Math.min(content, cap, Number.parseFloat(popover.style.getPropertyValue('--popover-available-height'))),
    });
    document.body.append(trigger, popover);
    return { trigger, popover };
  }

  beforeEach(() => {
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 844 });
  });

  it('opens under its trigger where what it holds fits there', () => {
    const { trigger, popover } = geometry({ top: 100, bottom: 144 }, 200);
    placePopover(popover, trigger, 'bottom end');
    expect(popover.style.top).toBe('148px');
    expect(popover.dataset.placement).toBe('bottom');
    expect(popover.style.getPropertyValue('--popover-available-height')).toBe('688px');
  });

  it('opens over its trigger when it does not fit under it and more of it fits over it (the last card on a phone)', () => {
    const { trigger, popover } = geometry({ top: 780, bottom: 824 }, 200);
    placePopover(popover, trigger, 'bottom end');
    expect(popover.dataset.placement).toBe('top');
    // Its bottom edge 4 px over the trigger: 780 − 4 − 200.
    expect(popover.style.top).toBe('576px');
    expect(popover.style.getPropertyValue('--popover-available-height')).toBe('768px');
  });

  it('over its trigger, stands on the height its styles cap it at, not on all it holds', () => {
    const { trigger, popover } = geometry({ top: 780, bottom: 824 }, 900, 320);
    placePopover(popover, trigger, 'bottom end');
    expect(popover.style.top).toBe(`${780 - 4 - 320}px`);
  });

  it('stays under its trigger where it fits at the height its styles cap it at, though all it holds would not', () => {
    const { trigger, popover } = geometry({ top: 440, bottom: 484 }, 900, 320);
    placePopover(popover, trigger, 'bottom end');
    expect(popover.dataset.placement).toBe('bottom');
    expect(popover.style.top).toBe('488px');
  });

  it('stays under its trigger when there is less room over it', () => {
    const { trigger, popover } = geometry({ top: 60, bottom: 104 }, 900);
    placePopover(popover, trigger, 'bottom start');
    expect(popover.dataset.placement).toBe('bottom');
    expect(popover.style.top).toBe('108px');
  });
});
