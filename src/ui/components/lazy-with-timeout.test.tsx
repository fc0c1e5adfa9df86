// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Suspense } from 'react';
import ptBR from '../../i18n/pt-BR.json';
import { ErrorBoundary } from '../../app/error-boundary';
import { renderUi } from '../test-support/test-utils';
import { lazyPart } from './lazy-with-timeout';

afterEach(cleanup);

type Greeting = { default: ({ name }: { name: string }) => React.JSX.Element };
const greeting = (): Greeting => ({ default: ({ name }: { name: string }) => <p>olá {name}</p> });

function renderPart(Part: ReturnType<typeof lazyPart<{ name: string }>>) {
  return renderUi(
    <ErrorBoundary>
      <h1>Tela</h1>
      <Suspense fallback={<p>carregando</p>}>
        <Part name="Ana" />
      </Suspense>
    </ErrorBoundary>,
  );
}

describe('lazyPart', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('shows the error in place of a part whose chunk times out, and the retry imports it again', async () => {
    const load = vi
      .fn<() => Promise<Greeting>>()
      .mockImplementationOnce(() => new Promise(() => undefined))
      .mockImplementation(() => Promise.resolve(greeting()));
    const Part = lazyPart<{ name: string }>(load, 30);
    const { user } = renderPart(Part);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(ptBR.common.partError.title);
    expect(alert).toHaveTextContent(ptBR.common.partError.body);
    // The rest of the screen stays.
    expect(screen.getByRole('heading', { name: 'Tela' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: ptBR.common.retry }));
    expect(await screen.findByText('olá Ana')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('takes any rejection of the import (a native TypeError) for a chunk failure', async () => {
    const load = vi
      .fn<() => Promise<Greeting>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(greeting());
    const { user } = renderPart(lazyPart<{ name: string }>(load));
    expect(await screen.findByRole('alert')).toHaveTextContent(ptBR.common.partError.title);
    await user.click(screen.getByRole('button', { name: ptBR.common.retry }));
    expect(await screen.findByText('olá Ana')).toBeInTheDocument();
  });

  it('leaves a render failure of the loaded part to the screen boundary (the 500 content)', async () => {
    const Broken = lazyPart<{ name: string }>(() =>
      Promise.resolve({
        default: (): React.JSX.Element => {
          throw new Error('render bug');
        },
      }),
    );
    renderPart(Broken);
    expect(await screen.findByText(ptBR.pages.serverError.title)).toBeInTheDocument();
    expect(screen.queryByText(ptBR.common.partError.title)).not.toBeInTheDocument();
  });

  it('preload fetches the chunk once, and the first render then shows it without a fallback', async () => {
    const load = vi.fn(() => Promise.resolve(greeting()));
    const Part = lazyPart<{ name: string }>(load);
    await Part.preload();
    renderPart(Part);
    expect(screen.getByText('olá Ana')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
