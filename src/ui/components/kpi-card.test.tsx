// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { KpiCard } from './kpi-card';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('KpiCard', () => {
  it('is a group named by the label with the value and the delta in words', () => {
    renderUi(<KpiCard label="Receita" value="R$ 12.345,60" delta={0.125} />);
    const group = screen.getByRole('group', { name: 'Receita' });
    expect(group).toHaveTextContent('R$ 12.345,60');
    expect(group).toHaveTextContent('Aumento de 12,5%');
  });

  it('words a fall and no change, formatted in the active locale', () => {
    const { rerender } = renderUi(<KpiCard label="Tickets" value="87" delta={-0.031} />);
    expect(screen.getByText('Queda de 3,1%')).toBeInTheDocument();
    rerender(<KpiCard label="Tickets" value="87" delta={0} />);
    expect(screen.getByText('Sem variação')).toBeInTheDocument();
  });

  it('uses English words and decimal point in en', () => {
    renderUi(<KpiCard label="Orders" value="1,024" delta={0.125} />, { language: 'en' });
    expect(screen.getByText('Up 12.5%')).toBeInTheDocument();
  });

  it('shows a skeleton and aria-busy while loading', () => {
    renderUi(<KpiCard label="Atendimentos" value="10" delta={0.5} isLoading />);
    const group = screen.getByRole('group', { name: 'Atendimentos' });
    expect(group).toHaveAttribute('aria-busy', 'true');
    expect(group).not.toHaveTextContent('10');
    expect(group).not.toHaveTextContent('Aumento');
  });
});
