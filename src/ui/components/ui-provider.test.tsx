// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createI18n } from '../../i18n/setup';
import { darkTheme, lightTheme } from '../theme.css';
import { toAriaLocale } from './locale-provider';
import { NumberField } from './number-field';
import { UiProvider, type UiProviderProps } from './ui-provider';

afterEach(cleanup);

function renderWithProvider(props: Omit<UiProviderProps, 'children'>, language = 'pt-BR') {
  const i18n = createI18n(language);
  const view = (p: Omit<UiProviderProps, 'children'>) => (
    <I18nextProvider i18n={i18n}>
      <UiProvider {...p}>
        <NumberField label="Valor" defaultValue={1234.5} />
      </UiProvider>
    </I18nextProvider>
  );
  const result = render(view(props));
  return { ...result, rerenderWith: (p: Omit<UiProviderProps, 'children'>) => result.rerender(view(p)), i18n };
}

describe('toAriaLocale', () => {
  it('maps the app languages to full locales', () => {
    expect(toAriaLocale('pt-BR')).toBe('pt-BR');
    expect(toAriaLocale('pt')).toBe('pt-PT');
    expect(toAriaLocale('en')).toBe('en-US');
    expect(toAriaLocale(undefined)).toBe('pt-BR');
  });
});

describe('UiProvider', () => {
  it('puts the theme class and color-scheme on <html> (portals see the theme) and swaps them', () => {
    const { rerenderWith, unmount } = renderWithProvider({ theme: 'light' });
    const root = document.documentElement;
    expect(root).toHaveClass(lightTheme);
    expect(root.style.colorScheme).toBe('light');
    rerenderWith({ theme: 'dark' });
    expect(root).toHaveClass(darkTheme);
    expect(root).not.toHaveClass(lightTheme);
    unmount();
    expect(root).not.toHaveClass(darkTheme);
  });

  it('formats with the locale of the active i18next language', () => {
    renderWithProvider({}, 'en');
    expect(screen.getByRole('textbox', { name: 'Valor' })).toHaveValue('1,234.5');
  });
});
