// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Spinner } from './spinner';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Spinner', () => {
  it('is an indeterminate progressbar named by its label', () => {
    renderUi(<Spinner label="Carregando usuários" />);
    const bar = screen.getByRole('progressbar', { name: 'Carregando usuários' });
    // Indeterminate: no value for assistive technology to read out.
    expect(bar).not.toHaveAttribute('aria-valuenow');
  });

  it('is decorative without a label', () => {
    const { container } = renderUi(<Spinner size="lg" />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(container.querySelector('[aria-hidden="true"]')).not.toBeNull();
  });
});
