// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
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
});
