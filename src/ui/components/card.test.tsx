// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Button } from './button';
import { Card } from './card';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Card', () => {
  it('with a title is a region named by its heading, at the chosen level', () => {
    renderUi(
      <Card title="Recursos do tenant" headingLevel={3} actions={<Button>Salvar</Button>}>
        conteúdo
      </Card>,
    );
    expect(screen.getByRole('region', { name: 'Recursos do tenant' })).toHaveTextContent('conteúdo');
    expect(screen.getByRole('heading', { level: 3, name: 'Recursos do tenant' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Salvar' })).toBeInTheDocument();
  });

  it('without a title is a plain container', () => {
    renderUi(<Card>só conteúdo</Card>);
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByText('só conteúdo')).toBeInTheDocument();
  });
});
