import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { setupUser } from './user-event';
import type { i18n as I18n } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../../i18n/setup';
import { lightTheme } from '../theme.css';
import { UiLocaleProvider } from '../components/locale-provider';

export interface RenderUiOptions extends Omit<RenderOptions, 'wrapper'> {
  /** i18next language; pt-BR (the product default) unless a test says otherwise. */
  language?: string;
}

/** `render` wrapped like the shell wraps screens: i18next, React Aria's locale, the light theme. */
export function renderUi(
  ui: ReactElement,
  { language = 'pt-BR', ...options }: RenderUiOptions = {},
): RenderResult & { i18n: I18n; user: UserEvent } {
  const i18n = createI18n(language);
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <I18nextProvider i18n={i18n}>
        <UiLocaleProvider>
          <div className={lightTheme}>{children}</div>
        </UiLocaleProvider>
      </I18nextProvider>
    );
  }
  // user-event drives real keyboard sequences (Tab, arrows, Enter) through React Aria's handlers.
  const user = setupUser();
  return { ...render(ui, { wrapper: Wrapper, ...options }), i18n, user };
}
