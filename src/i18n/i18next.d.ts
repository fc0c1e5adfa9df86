import type ptBR from './pt-BR.json';

// pt-BR.json is the source of truth: `t()` only accepts its keys, so a typo fails `tsc`.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof ptBR };
    returnNull: false;
    strictKeyChecks: true;
  }
}
