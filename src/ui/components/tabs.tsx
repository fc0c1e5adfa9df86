import {
  Tab as RACTab,
  TabList as RACTabList,
  TabPanel as RACTabPanel,
  Tabs as RACTabs,
  type TabListProps as RACTabListProps,
  type TabPanelProps as RACTabPanelProps,
  type TabProps as RACTabProps,
  type TabsProps as RACTabsProps,
} from 'react-aria-components/Tabs';
import { cx } from './class-names';
import * as styles from './tabs.css';

type Unstyled<P> = Omit<P, 'className' | 'style'> & { className?: string };

/**
 * Tabs (RAC `Tabs`): `<Tabs><TabList aria-label>…<Tab id/></TabList><TabPanel id/></Tabs>`.
 * Arrow keys move between tabs and select them, Tab moves into the panel. Use for views of one
 * thing (tenant: features / plan / webhooks), not for navigation between routes.
 */
export function Tabs({ className, ...props }: Unstyled<RACTabsProps>) {
  return <RACTabs {...props} className={cx(styles.tabs, className)} />;
}

/** The row of tabs; needs an `aria-label` (translated) describing what the tabs switch. */
export function TabList<T extends object>({ className, ...props }: Unstyled<RACTabListProps<T>>) {
  return <RACTabList {...props} className={cx(styles.list, className)} />;
}

/** One tab; its `id` matches the `TabPanel` it shows. */
export function Tab({ className, ...props }: Unstyled<RACTabProps>) {
  return <RACTab {...props} className={cx(styles.tab, className)} />;
}

/** The content of one tab (only the selected panel is mounted). */
export function TabPanel({ className, ...props }: Unstyled<RACTabPanelProps>) {
  return <RACTabPanel {...props} className={cx(styles.panel, className)} />;
}
