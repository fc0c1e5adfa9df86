// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Badge } from './badge';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Badge', () => {
  it('renders its text with a tone class that differs per tone', () => {
    renderUi(
      <>
        <Badge tone="danger">Bloqueado</Badge>
        <Badge>Básico</Badge>
      </>,
    );
    const blocked = screen.getByText('Bloqueado');
    const plan = screen.getByText('Básico');
    expect(blocked.className).not.toBe(plan.className);
  });
});
