// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Tab, TabList, TabPanel, Tabs } from './tabs';
import { renderUi } from '../test-support/test-utils';

afterEach(cleanup);

function TenantTabs() {
  return (
    <Tabs>
      <TabList aria-label="Tenant">
        <Tab id="features">Recursos</Tab>
        <Tab id="plan">Plano</Tab>
        <Tab id="webhooks" isDisabled>
          Webhooks
        </Tab>
      </TabList>
      <TabPanel id="features">Painel de recursos</TabPanel>
      <TabPanel id="plan">Painel do plano</TabPanel>
      <TabPanel id="webhooks">Painel de webhooks</TabPanel>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('has tablist/tab/tabpanel roles with the first tab selected', () => {
    renderUi(<TenantTabs />);
    expect(screen.getByRole('tablist', { name: 'Tenant' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Recursos' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Painel de recursos');
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName('Recursos');
  });

  it('switches with arrow keys, skipping disabled tabs', async () => {
    const { user } = renderUi(<TenantTabs />);
    await user.tab();
    expect(screen.getByRole('tab', { name: 'Recursos' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Plano' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Painel do plano');
    await user.keyboard('{ArrowRight}');
    // Webhooks is disabled: focus wraps to the first tab.
    expect(screen.getByRole('tab', { name: 'Recursos' })).toHaveAttribute('aria-selected', 'true');
  });
});
