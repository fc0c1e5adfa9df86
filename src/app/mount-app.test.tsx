// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import type { Root } from 'react-dom/client';
import { mountApp } from './mount-app';

/**
 * An attack on the replaced prerendered page (src/app/mount-app.tsx): when the app's first render throws and
 * a boundary inside it shows its fallback, the commit still hands the container input back and drops the
 * prerendered theme class; the page is not left inert.
 */

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <h1>Algo deu errado</h1> : this.props.children;
  }
}

function Throws(): ReactNode {
  throw new Error('first render failed');
}

let mounted: Root | undefined;
afterEach(() => {
  act(() => mounted?.unmount());
  mounted = undefined;
  document.documentElement.removeAttribute('class');
  document.body.innerHTML = '';
});

it('a first render that throws into a boundary still ends the prerendered page: not inert, its class gone', async () => {
  document.documentElement.className = 'prerendered-light';
  document.body.innerHTML = '<div id="root" data-prerendered="login pt-BR light"><h1>Entrar no painel</h1></div>';
  const container = document.getElementById('root')!;
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await act(async () => {
      mounted = mountApp(
        container,
        <Boundary>
          <Throws />
        </Boundary>,
        'login en dark',
      ).root;
    });
  } finally {
    error.mockRestore();
  }
  expect(container.querySelector('h1')).toHaveTextContent('Algo deu errado');
  expect(container.inert).toBe(false);
  expect(document.documentElement.classList).toHaveLength(0);
});
