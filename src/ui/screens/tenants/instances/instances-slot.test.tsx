// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { renderWithServices, type RenderedApp } from '../../../test-support/render';
import { InstancesSlot } from './instances-slot';

// The instances workspace's panel (its own tests cover it): here only how the tenants screen mounts it.
vi.mock('./instances-panel', () => ({
  default: ({ tenantName }: { tenantName: string }) => <p>instâncias de {tenantName}</p>,
}));

let view: RenderedApp | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('InstancesSlot', () => {
  it('says it is loading while the panel code arrives, then mounts the panel for the tenant', async () => {
    view = renderWithServices(<InstancesSlot tenantName="farmacia-central" />, { signedIn: {} });
    expect(screen.getByRole('progressbar', { name: 'Carregando instâncias…' })).toBeInTheDocument();
    expect(await screen.findByText('instâncias de farmacia-central')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
