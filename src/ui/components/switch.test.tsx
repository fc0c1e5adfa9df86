// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Switch } from './switch';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Switch', () => {
  it('has role switch, toggles with Space and with a click on its label', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Switch onChange={onChange}>Autenticação em dois fatores</Switch>);
    await user.tab();
    const control = screen.getByRole('switch', { name: 'Autenticação em dois fatores' });
    expect(control).toHaveFocus();
    await user.keyboard(' ');
    expect(control).toBeChecked();
    await user.click(screen.getByText('Autenticação em dois fatores'));
    expect(control).not.toBeChecked();
    expect(onChange.mock.calls).toEqual([[true], [false]]);
  });

  it('disabled and read-only switches do not change', async () => {
    const { user } = renderUi(
      <>
        <Switch isDisabled>A</Switch>
        <Switch isReadOnly defaultSelected>
          B
        </Switch>
      </>,
    );
    await user.click(screen.getByRole('switch', { name: 'A' }));
    await user.click(screen.getByRole('switch', { name: 'B' }));
    expect(screen.getByRole('switch', { name: 'A' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'B' })).toBeChecked();
  });
});
