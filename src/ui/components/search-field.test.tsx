// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import ptBR from '../../i18n/pt-BR.json';
import { SearchField } from './search-field';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('SearchField', () => {
  it('is a searchbox; Enter submits, Escape clears', async () => {
    const onSubmit = vi.fn();
    const onChange = vi.fn();
    const { user } = renderUi(<SearchField label="Buscar tenants" onSubmit={onSubmit} onChange={onChange} />);
    await user.tab();
    const box = screen.getByRole('searchbox', { name: 'Buscar tenants' });
    expect(box).toHaveFocus();
    await user.keyboard('acme{Enter}');
    expect(onSubmit).toHaveBeenCalledWith('acme');
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('shows a named clear button only while there is text', async () => {
    const { user } = renderUi(<SearchField label="Buscar" defaultValue="x" />);
    const clear = screen.getByRole('button', { name: ptBR.ui.search.clear });
    await user.click(clear);
    expect(screen.getByRole('searchbox')).toHaveValue('');
    expect(screen.queryByRole('button', { name: ptBR.ui.search.clear })).toBeNull();
  });

  it('with labelHidden keeps the accessible name but hides the label visually', () => {
    renderUi(<SearchField label="Buscar usuários" labelHidden />);
    expect(screen.getByRole('searchbox', { name: 'Buscar usuários' })).toBeInTheDocument();
    expect(screen.getByText('Buscar usuários').closest('span[style]')).not.toBeNull();
  });
});
