// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { useState } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import { Pagination, pageWindow } from './pagination';
import { renderUi } from '../test-support/test-utils';

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

  it('changes the page size through its labelled native select', async () => {
    const onPageSizeChange = vi.fn();
    const { user } = renderUi(<Paged onPageSizeChange={onPageSizeChange} />);
    const select = screen.getByRole('combobox', { name: ptBR.ui.pagination.pageSize });
    expect(select).toHaveValue('4');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['4', '10', '25', '50']);
    await user.selectOptions(select, '10');
    expect(onPageSizeChange).toHaveBeenCalledWith(10);
    expect(select).toHaveValue('10');
    expect(screen.getByText('1–10 de 37')).toBeInTheDocument();
  });

  it('disables every control with isDisabled, and "next"/"last" on the last page only', async () => {
    const { rerender } = renderUi(
      <Pagination page={2} pageSize={4} total={8} onPageChange={() => {}} onPageSizeChange={() => {}} isDisabled />,
    );
    for (const button of screen.getAllByRole('button')) expect(button).toBeDisabled();
    expect(screen.getByRole('combobox', { name: ptBR.ui.pagination.pageSize })).toBeDisabled();
    rerender(<Pagination page={2} pageSize={4} total={8} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: ptBR.ui.pagination.first })).toBeEnabled();
    expect(screen.getByRole('button', { name: ptBR.ui.pagination.next })).toBeDisabled();
    expect(screen.getByRole('button', { name: ptBR.ui.pagination.last })).toBeDisabled();
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('does not call onPageChange for the current page', async () => {
    const onPageChange = vi.fn();
    const { user } = renderUi(<Pagination page={1} pageSize={4} total={8} onPageChange={onPageChange} />);
    await user.click(screen.getByRole('button', { name: 'Página 1' }));
    expect(onPageChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Página 2' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it.each([
    ['pt-BR', '101–200 de 10.000', 'Página 1.000'],
    ['pt', '101–200 de 10.000', 'Página 1.000'],
    ['en', '101–200 of 10,000', 'Page 1,000'],
  ])('writes the numbers as %s does', (language, range, lastPage) => {
    renderUi(<Pagination page={2} pageSize={100} total={10_000} onPageChange={() => {}} />, { language });
    expect(screen.getByText(range)).toBeInTheDocument();
    cleanup();
    renderUi(<Pagination page={1000} pageSize={10} total={10_000} onPageChange={() => {}} />, { language });
    expect(screen.getByRole('button', { name: lastPage })).toHaveTextContent(lastPage.split(' ')[1] ?? '');
  });

  it.each([
    ['pt-BR', '1–4 de mais de 1.000', '5–8 de mais de 1.000', 'Página 251'],
    ['pt', '1–4 de mais de 1.000', '5–8 de mais de 1.000', 'Página 251'],
    ['en', '1–4 of more than 1,000', '5–8 of more than 1,000', 'Page 251'],
  ])(
    'says "more than" in %s when the count is a lower bound, and lets the user go forward',
    async (language, first, second, known) => {
      function Bounded() {
        const [page, setPage] = useState(1);
        return <Pagination page={page} pageSize={4} total={1000} totalIsLowerBound onPageChange={setPage} />;
      }
      const { user, i18n } = renderUi(<Bounded />, { language });
      expect(screen.getByText(first)).toBeInTheDocument();
      // The page after the counted records is the last one known: reachable, and "next" is on.
      expect(screen.getByRole('button', { name: known })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: i18n.t('ui.pagination.next') }));
      expect(screen.getByText(second)).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: known }));
      expect(screen.getByRole('button', { name: known })).toHaveAttribute('aria-current', 'page');
    },
  );

  it('past a bounded count, the button to the last page says it is the last one known, not the last', async () => {
    const { i18n } = renderUi(
      <Pagination page={1} pageSize={4} total={1000} totalIsLowerBound onPageChange={() => {}} />,
    );
    expect(screen.getByRole('button', { name: i18n.t('ui.pagination.lastKnown') })).toBeEnabled();
    expect(screen.queryByRole('button', { name: i18n.t('ui.pagination.last') })).toBeNull();
  });

  it('handles an empty list', () => {
    renderUi(<Paged total={0} />);
    expect(screen.getByText('0–0 de 0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ptBR.ui.pagination.next })).toBeDisabled();
  });
});
