// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { renderUi } from '../test-support/test-utils';
import { VisuallyHidden } from './visually-hidden';

afterEach(cleanup);

describe('VisuallyHidden', () => {
  it('keeps text in the accessibility tree while clipping it visually', () => {
    renderUi(
      <button type="button">
        <VisuallyHidden>Fechar painel</VisuallyHidden>
      </button>,
    );
    expect(screen.getByRole('button', { name: 'Fechar painel' })).toBeInTheDocument();
    const hidden = screen.getByText('Fechar painel');
    expect(hidden.tagName).toBe('SPAN');
    expect(hidden.style.clip).not.toBe('');
    expect(hidden.style.position).toBe('absolute');
  });

  it('can render a div', () => {
    renderUi(<VisuallyHidden elementType="div">Bloco</VisuallyHidden>);
    expect(screen.getByText('Bloco').tagName).toBe('DIV');
  });
});
