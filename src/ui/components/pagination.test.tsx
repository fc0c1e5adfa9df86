// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { useState } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import { Pagination, pageWindow } from './pagination';
import { renderUi } from './test-utils';

afterEach(cleanup);

function Paged({ total = 37, onPageSizeChange }: { total?: number; onPageSizeChange?: (size: number) => void }) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(4);
  return (
    <Pagination
      page={page}
      pageSize={size}
      total={total}
      onPageChange={setPage}
      onPageSizeChange={(s) => {
        setSize(s);
        setPage(1);
        onPageSizeChange?.(s);
      }}
    />
  );
}

describe('pageWindow', () => {
  it('keeps first, last and siblings, with gaps', () => {
    expect(pageWindow(1, 1, 1)).toEqual([1]);
    expect(pageWindow(1, 10, 1)).toEqual([1, 2, null, 10]);
    expect(pageWindow(5, 10, 1)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageWindow(10, 10, 1)).toEqual([1, null, 9, 10]);
    expect(pageWindow(3, 5, 1)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('Pagination', () => {
  it('is a named navigation landmark with the range and the current page', () => {
    renderUi(<Paged />);
    const nav = screen.getByRole('navigation', { name: ptBR.ui.pagination.label });
    expect(within(nav).getByText('1–4 de 37')).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Página 1' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('button', { name: ptBR.ui.pagination.previous })).toBeDisabled();
    expect(within(nav).getByRole('button', { name: ptBR.ui.pagination.first })).toBeDisabled();
    expect(within(nav).getByRole('button', { name: 'Página 10' })).toBeInTheDocument();
  });

  it('moves by keyboard: Tab to "next", Enter; then jump to the last page', async () => {
    const { user } = renderUi(<Paged />);
    const next = screen.getByRole('button', { name: ptBR.ui.pagination.next });
    next.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('5–8 de 37')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Página 2' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: ptBR.ui.pagination.last }));
    expect(screen.getByText('37–37 de 37')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ptBR.ui.pagination.next })).toBeDisabled();
  });

  it('changes the page size through its Select', async () => {
    const onPageSizeChange = vi.fn();
    const { user } = renderUi(<Paged onPageSizeChange={onPageSizeChange} />);
    await user.click(screen.getByRole('button', { name: new RegExp(ptBR.ui.pagination.pageSize) }));
    await user.click(screen.getByRole('option', { name: '10' }));
    expect(onPageSizeChange).toHaveBeenCalledWith(10);
    expect(screen.getByText('1–10 de 37')).toBeInTheDocument();
  });

  it('handles an empty list', () => {
    renderUi(<Paged total={0} />);
    expect(screen.getByText('0–0 de 0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ptBR.ui.pagination.next })).toBeDisabled();
  });
});
