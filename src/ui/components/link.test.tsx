// @vitest-environment jsdom
// @test-fresh: asserts :focus-visible, which jsdom's selector engine decides from the last keyboard and
// mouse events it saw on the document: a document shared with an earlier file answers from that file's.
import { cleanup, screen } from '@testing-library/react';
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
    expect(text).toHaveFocus();
    await user.tab();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('data-focus-visible', 'true');
  });

  it('a disabled link is not a navigable href', () => {
    renderUi(
      <Link href="/x" isDisabled>
        Desativado
      </Link>,
    );
    const link = screen.getByRole('link', { name: 'Desativado' });
    expect(link).toHaveAttribute('aria-disabled', 'true');
  });
});
