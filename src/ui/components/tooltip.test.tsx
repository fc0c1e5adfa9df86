// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { IconButton } from './button';
import { CloseIcon } from './icons';
import { renderUi } from '../test-support/test-utils';
import { Tooltip } from './tooltip';

afterEach(cleanup);

describe('Tooltip', () => {
  it('shows on keyboard focus, describes its trigger and hides on Escape', async () => {
    const { user } = renderUi(
      <Tooltip content="Alternar tema (claro/escuro)">
        <IconButton label="Alternar tema" icon={<CloseIcon />} />
      </Tooltip>,
    );
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.tab();
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('Alternar tema (claro/escuro)');
    expect(screen.getByRole('button', { name: 'Alternar tema' })).toHaveAccessibleDescription(
      'Alternar tema (claro/escuro)',
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
