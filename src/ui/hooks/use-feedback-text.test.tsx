// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import ptBR from '../../i18n/pt-BR.json';
import { createI18n } from '../../i18n/setup';
import { useFeedbackText, type FormFeedbackKeys } from './use-feedback-text';

function rendered(initial: FormFeedbackKeys) {
  const i18n = createI18n('pt-BR');
  const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
  return renderHook((feedback: FormFeedbackKeys) => useFeedbackText(feedback, 'roles.form.failure'), {
    wrapper,
    initialProps: initial,
  });
}

describe('useFeedbackText', () => {
  it('translates each refused field and the failure with its action and reason', () => {
    const { result } = rendered({
      fieldErrors: { name: 'roles.errors.name', display_name: undefined },
      error: { key: 'roles.errors.create', reason: 'apiErrors.conflict' },
    });
    expect(result.current.validationErrors).toEqual({ name: ptBR.roles.errors.name });
    expect(result.current.formError).toBe(`${ptBR.roles.errors.create} ${ptBR.apiErrors.conflict}`);
  });

  it('says nothing without a refusal, absent field errors included', () => {
    const { result } = rendered({ error: null });
    expect(result.current).toEqual({ validationErrors: {}, formError: null });
  });

  it('keeps the same field errors object until the machine reports new refusals', () => {
    const fieldErrors = { name: 'roles.errors.name' } as const;
    const { result, rerender } = rendered({ fieldErrors, error: null });
    const first = result.current.validationErrors;
    rerender({ fieldErrors, error: null });
    expect(result.current.validationErrors).toBe(first);
    rerender({ fieldErrors: { name: 'roles.errors.name' }, error: null });
    expect(result.current.validationErrors).not.toBe(first);
    expect(result.current.validationErrors).toEqual(first);
  });
});
