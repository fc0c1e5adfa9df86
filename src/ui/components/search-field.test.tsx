// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import axe from 'axe-core';
import { useState } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import { SearchField } from './search-field';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

async function violations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

function Controlled({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <SearchField
      label="Buscar tenants"
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('SearchField', () => {
  it('is a searchbox named by its label; Enter submits, Escape clears', async () => {
    const onSubmit = vi.fn();
    const onChange = vi.fn();
    const onClear = vi.fn();
    const { user } = renderUi(
      <SearchField label="Buscar tenants" onSubmit={onSubmit} onChange={onChange} onClear={onClear} />,
    );
    await user.tab();
    const box = screen.getByRole('searchbox', { name: 'Buscar tenants' });
    expect(box).toHaveFocus();
    await user.keyboard('acme{Enter}');
    expect(onSubmit).toHaveBeenCalledWith('acme');
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(onClear).toHaveBeenCalledOnce();
  });

  it('lets Escape through when empty (a dialog around it may close), and takes it when not', () => {
    const outer = vi.fn();
    renderUi(
      <div onKeyDown={(event) => outer(event.key)}>
        <SearchField label="Buscar" defaultValue="x" />
      </div>,
    );
    const box = screen.getByRole('searchbox');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box).toHaveValue('');
    expect(outer).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(outer).toHaveBeenCalledWith('Escape');
  });

  it('follows a controlled value: typing reports each change', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Controlled onChange={onChange} />);
    await user.type(screen.getByRole('searchbox', { name: 'Buscar tenants' }), 'far');
    expect(onChange.mock.calls.map(([value]) => value)).toEqual(['f', 'fa', 'far']);
    expect(screen.getByRole('searchbox')).toHaveValue('far');
  });

  it('shows a named clear button only while there is text; it clears and keeps focus in the input', async () => {
    const { user } = renderUi(<SearchField label="Buscar" defaultValue="x" />);
    const box = screen.getByRole('searchbox');
    box.focus();
    const clear = screen.getByRole('button', { name: ptBR.ui.search.clear });
    // Out of the tab order, as React Aria's clear button: Escape does the same from the keyboard.
    expect(clear).toHaveAttribute('tabindex', '-1');
    await user.click(clear);
    expect(box).toHaveValue('');
    expect(box).toHaveFocus();
    expect(screen.queryByRole('button', { name: ptBR.ui.search.clear })).toBeNull();
  });

  it('with labelHidden keeps the accessible name but hides the label visually', () => {
    renderUi(<SearchField label="Buscar usuários" labelHidden />);
    expect(screen.getByRole('searchbox', { name: 'Buscar usuários' })).toBeInTheDocument();
    expect(screen.getByText('Buscar usuários').closest('span[style]')).not.toBeNull();
  });

  it('links its description and has no axe violations, empty or with text', async () => {
    const { user } = renderUi(<SearchField label="Buscar" description="Nome ou CNPJ" />);
    expect(screen.getByRole('searchbox', { name: 'Buscar' })).toHaveAccessibleDescription('Nome ou CNPJ');
    expect(await violations()).toEqual([]);
    await user.type(screen.getByRole('searchbox'), 'acme');
    expect(await violations()).toEqual([]);
  });
});
