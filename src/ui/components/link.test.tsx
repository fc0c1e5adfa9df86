// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Link, LinkButton } from './link';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

describe('Link and LinkButton', () => {
  it('render as links with href, reachable by Tab', async () => {
    const { user } = renderUi(
      <>
        <Link href="/backoffice/users">Usuários</Link>
        <LinkButton href="/backoffice/" variant="primary">
          Voltar ao início
        </LinkButton>
      </>,
    );
    const text = screen.getByRole('link', { name: 'Usuários' });
    const button = screen.getByRole('link', { name: 'Voltar ao início' });
    expect(text).toHaveAttribute('href', '/backoffice/users');
    expect(button).toHaveAttribute('href', '/backoffice/');
    await user.tab();
    // Its ring selects on :focus-visible (link.css.ts), which jsdom's selector engine never grants an
    // <a href> (it does a <button>, button.test.tsx): the browser's is what shows it.
    expect(text).toHaveFocus();
    await user.tab();
    expect(button).toHaveFocus();
  });

  it('a disabled link is not a navigable href', () => {
    renderUi(
      <Link href="/x" isDisabled>
        Desativado
      </Link>,
    );
    const link = screen.getByRole('link', { name: 'Desativado' });
    expect(link).toHaveAttribute('aria-disabled', 'true');
    expect(link).not.toHaveAttribute('href');
  });

  it('navigate client-side, with the router base (the tenant) in their href for a new tab', async () => {
    const memory = memoryLocation({ path: '/backoffice/', record: true });
    const { user } = renderUi(
      <Router hook={memory.hook} base="/backoffice">
        <Link href="/users">Usuários</Link>
        <LinkButton href="/roles">Funções</LinkButton>
      </Router>,
    );
    const text = screen.getByRole('link', { name: 'Usuários' });
    const button = screen.getByRole('link', { name: 'Funções' });
    expect(text).toHaveAttribute('href', '/backoffice/users');
    expect(button).toHaveAttribute('href', '/backoffice/roles');
    await user.click(text);
    expect(memory.history).toEqual(['/backoffice/', '/backoffice/users']);
    await user.click(button);
    expect(memory.history).toEqual(['/backoffice/', '/backoffice/users', '/backoffice/roles']);
  });

  it('leave a modifier click and a middle click to the browser (a new tab or window)', () => {
    const memory = memoryLocation({ path: '/backoffice/', record: true });
    renderUi(
      <Router hook={memory.hook} base="/backoffice">
        <Link href="/users">Usuários</Link>
        <LinkButton href="/roles">Funções</LinkButton>
      </Router>,
    );
    for (const name of ['Usuários', 'Funções']) {
      const link = screen.getByRole('link', { name });
      for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }])
        // fireEvent answers false when the default (the browser's own opening) was prevented.
        expect(fireEvent.click(link, init)).toBe(true);
    }
    expect(memory.history).toEqual(['/backoffice/']);
  });

  it('leave a link for another window, a download or another site to the browser, the tenant base kept', () => {
    const memory = memoryLocation({ path: '/backoffice/', record: true });
    renderUi(
      <Router hook={memory.hook} base="/backoffice">
        <Link href="/audit" target="_blank" rel="noopener">
          Auditoria
        </Link>
        <LinkButton href="/export.csv" download>
          Exportar
        </LinkButton>
        <Link href="https://example.com/help">Ajuda</Link>
        <Link href="/users" target="_self">
          Usuários
        </Link>
      </Router>,
    );
    const blank = screen.getByRole('link', { name: 'Auditoria' });
    const download = screen.getByRole('link', { name: 'Exportar' });
    const external = screen.getByRole('link', { name: 'Ajuda' });
    expect(blank).toHaveAttribute('href', '/backoffice/audit');
    expect(blank).toHaveAttribute('target', '_blank');
    expect(download).toHaveAttribute('href', '/backoffice/export.csv');
    expect(external).toHaveAttribute('href', 'https://example.com/help');
    for (const link of [blank, download, external]) expect(fireEvent.click(link)).toBe(true);
    expect(memory.history).toEqual(['/backoffice/']);
    // `_self` is this window: still client-side.
    expect(fireEvent.click(screen.getByRole('link', { name: 'Usuários' }))).toBe(false);
    expect(memory.history).toEqual(['/backoffice/', '/backoffice/users']);
  });

  it('a disabled link runs no click handler, and aria-current reaches the element', async () => {
    const onClick = vi.fn();
    const { user } = renderUi(
      <>
        <Link href="/x" isDisabled onClick={onClick}>
          Desativado
        </Link>
        <Link href="/users" aria-current="page">
          Usuários
        </Link>
      </>,
    );
    await user.click(screen.getByRole('link', { name: 'Desativado' }));
    expect(onClick).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Usuários' })).toHaveAttribute('aria-current', 'page');
  });
});
