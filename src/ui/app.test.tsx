// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import en from '../i18n/en.json';
import ptBR from '../i18n/pt-BR.json';
import { createI18n } from '../i18n/setup';
import { App } from './app';

afterEach(cleanup);

describe('App', () => {
  it('renders the pt-BR heading and tagline by default', () => {
    render(<App />);
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: ptBR.app.name })).toBeInTheDocument();
    expect(screen.getByText(ptBR.app.tagline)).toBeInTheDocument();
  });

  it('re-renders in English when the instance switches language', async () => {
    const i18n = createI18n();
    render(<App i18n={i18n} />);
    expect(screen.getByRole('heading', { level: 1, name: ptBR.app.name })).toBeInTheDocument();

    await act(async () => {
      await i18n.changeLanguage('en');
    });

    expect(screen.getByRole('heading', { level: 1, name: en.app.name })).toBeInTheDocument();
    expect(screen.getByText(en.app.tagline)).toBeInTheDocument();
  });
});
