// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { ProgressBar } from './progress-bar';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('ProgressBar', () => {
  it('is a named progressbar with value and a locale-formatted percentage', () => {
    renderUi(<ProgressBar label="Salvando recursos" value={3} maxValue={8} />);
    const bar = screen.getByRole('progressbar', { name: 'Salvando recursos' });
    expect(bar).toHaveAttribute('aria-valuenow', '3');
    expect(bar).toHaveAttribute('aria-valuemax', '8');
    expect(bar).toHaveAttribute('aria-valuetext', '38%');
    expect(bar).toHaveTextContent('38%');
  });

  it('uses a custom value label for both the eye and the screen reader', () => {
    renderUi(<ProgressBar label="Webhooks" value={1} maxValue={2} valueLabel="1 de 2 tipos" />);
    const bar = screen.getByRole('progressbar', { name: 'Webhooks' });
    expect(bar).toHaveAttribute('aria-valuetext', '1 de 2 tipos');
    expect(bar).toHaveTextContent('1 de 2 tipos');
  });

  it('clamps a value beyond its range and fills the track to its share', () => {
    renderUi(<ProgressBar label="Baixando" value={150} />);
    const bar = screen.getByRole('progressbar', { name: 'Baixando' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar).toHaveAttribute('aria-valuetext', '100%');
    expect(bar.querySelector('[style]')).toHaveStyle({ width: '100%' });
  });

  it('is indeterminate without a value', () => {
    renderUi(<ProgressBar label="Sincronizando" isIndeterminate />);
    const bar = screen.getByRole('progressbar', { name: 'Sincronizando' });
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(bar).not.toHaveAttribute('aria-valuetext');
    expect(bar.querySelector('[style]')).toBeNull();
  });
});
