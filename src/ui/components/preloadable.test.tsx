// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import { ChunkTimeoutError, preloadableLazy } from './preloadable';

afterEach(cleanup);

const greeting = () => ({ default: ({ name }: { name: string }) => <p>olá {name}</p> });

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error.name}</p> : this.props.children;
  }
}

describe('preloadableLazy', () => {
  it('suspends like React.lazy when rendered before its chunk is in', async () => {
    const load = vi.fn(
      () => new Promise<ReturnType<typeof greeting>>((resolve) => setTimeout(() => resolve(greeting()), 20)),
    );
    const Greeting = preloadableLazy(load);
    render(
      <Suspense fallback={<p>carregando</p>}>
        <Greeting name="Ana" />
      </Suspense>,
    );
    expect(screen.getByText('carregando')).toBeInTheDocument();
    expect(await screen.findByText('olá Ana')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders in the same pass, without the fallback, once preloaded', async () => {
    const load = vi.fn(() => Promise.resolve(greeting()));
    const Greeting = preloadableLazy(load);
    await Greeting.preload();
    await Greeting.preload();
    render(
      <Suspense fallback={<p>carregando</p>}>
        <Greeting name="Bia" />
      </Suspense>,
    );
    expect(screen.getByText('olá Bia')).toBeInTheDocument();
    expect(screen.queryByText('carregando')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed preload, so the render loads again', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(greeting());
    const Greeting = preloadableLazy<{ name: string }>(load);
    await expect(Greeting.preload()).rejects.toThrow('offline');
    render(
      <Suspense fallback={<p>carregando</p>}>
        <Greeting name="Caio" />
      </Suspense>,
    );
    expect(await screen.findByText('olá Caio')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('fails with ChunkTimeoutError when the chunk takes longer than the timeout', async () => {
    const Greeting = preloadableLazy<{ name: string }>(() => new Promise(() => undefined), 30);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <Boundary>
        <Suspense fallback={<p>carregando</p>}>
          <Greeting name="Dani" />
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(new ChunkTimeoutError('').name);
  });
});
