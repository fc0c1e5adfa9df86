import { createI18n } from '../../i18n/setup';
import { humanizeSlug, tenantValueLabels } from './tenant-value-labels';

describe('tenant template and pool labels (docs/product.md, Glossary)', () => {
  it('names the shipped templates and the provider pools in each locale', () => {
    const ptBR = tenantValueLabels(createI18n('pt-BR').t);
    expect(ptBR.template('farmacia')).toBe('Farmácia');
    expect(ptBR.template('padrao')).toBe('Padrão');
    expect(ptBR.pool('pool-a')).toBe('Grupo A');
    expect(ptBR.pool('pool_7')).toBe('Grupo 7');
    const en = tenantValueLabels(createI18n('en').t);
    expect(en.template('drogaria')).toBe('Drugstore');
    expect(en.pool('pool-b')).toBe('Pool B');
  });

  it('reads any other slug as words, never as the raw slug', () => {
    const labels = tenantValueLabels(createI18n('pt-BR').t);
    expect(labels.template('rede_sul-2')).toBe('Rede sul 2');
    expect(labels.pool('cluster-norte')).toBe('Cluster norte');
    expect(humanizeSlug('x')).toBe('X');
  });
});
