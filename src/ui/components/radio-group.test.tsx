// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Radio, RadioGroup } from './radio-group';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

function Plans(props: { isDisabled?: boolean; onChange?: (value: string) => void }) {
  return (
    <RadioGroup label="Plano" defaultValue="basic" {...props}>
      <Radio value="basic">Básico</Radio>
      <Radio value="pro">Pro</Radio>
      <Radio value="enterprise">Enterprise</Radio>
    </RadioGroup>
  );
}

describe('RadioGroup', () => {
  it('is a labelled radiogroup; Tab lands on the selected radio, arrows move and select', async () => {
    const onChange = vi.fn();
    const { user } = renderUi(<Plans onChange={onChange} />);
    expect(screen.getByRole('radiogroup', { name: 'Plano' })).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Básico' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'Pro' })).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith('pro');
  });

  it('when disabled no radio can be chosen', async () => {
    const { user } = renderUi(<Plans isDisabled />);
    await user.click(screen.getByRole('radio', { name: 'Pro' }));
    expect(screen.getByRole('radio', { name: 'Básico' })).toBeChecked();
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled();
  });
});
