import { createI18n } from '../../../i18n/setup';
import { fillable, MARKS, remembered } from './row-labels';

describe('fillable', () => {
  it('fills a text translated once with each row’s values, as i18next would', () => {
    for (const language of ['pt-BR', 'pt', 'en']) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const more = fillable(t('tenants.screen.actions.more', { name: MARKS[0] }));
      const usage = fillable(t('tenants.screen.usage', { used: MARKS[0], limit: MARKS[1] }));
      for (const name of ['Farmácia Sol', 'A & B <Ltda>', '{{name}}', '$&']) {
        expect(more(name)).toBe(t('tenants.screen.actions.more', { name }));
      }
      expect(usage('1.234', '50')).toBe(t('tenants.screen.usage', { used: '1.234', limit: '50' }));
    }
  });

  it('keeps a text without marks as it is', () => {
    expect(fillable('Sem valores')('x')).toBe('Sem valores');
  });
});

describe('remembered', () => {
  it('labels each value once', () => {
    const seen: string[] = [];
    const label = remembered((v: string) => {
      seen.push(v);
      return v.toUpperCase();
    });
    expect([label('a'), label('b'), label('a')]).toEqual(['A', 'B', 'A']);
    expect(seen).toEqual(['a', 'b']);
  });
});
