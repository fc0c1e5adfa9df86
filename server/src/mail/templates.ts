/**
 * The server's e-mails, in pt-BR (the product's language), pt and en, each with a plain-text and an
 * HTML part. Every value put into the HTML is escaped; the text part carries no markup.
 */

export const MAIL_LOCALES = ['pt-BR', 'pt', 'en'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

export const isMailLocale = (value: unknown): value is MailLocale =>
  typeof value === 'string' && (MAIL_LOCALES as readonly string[]).includes(value);

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

interface ResetWords {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  action: string;
  expiry: (minutes: number) => string;
  ignore: string;
  signature: string;
}

const RESET: Record<MailLocale, ResetWords> = {
  'pt-BR': {
    subject: 'Redefinição de senha do painel',
    greeting: (name) => `Olá, ${name}.`,
    intro: 'Recebemos um pedido para redefinir a senha da sua conta no painel.',
    action: 'Redefinir minha senha',
    expiry: (minutes) => `O link vale por ${String(minutes)} minutos e pode ser usado uma única vez.`,
    ignore: 'Se você não pediu isto, ignore este e-mail: sua senha continua a mesma.',
    signature: 'Equipe do painel',
  },
  pt: {
    subject: 'Redefinição da palavra-passe do painel',
    greeting: (name) => `Olá, ${name}.`,
    intro: 'Recebemos um pedido para redefinir a palavra-passe da sua conta no painel.',
    action: 'Redefinir a minha palavra-passe',
    expiry: (minutes) => `A ligação é válida durante ${String(minutes)} minutos e só pode ser usada uma vez.`,
    ignore: 'Se não fez este pedido, ignore este e-mail: a sua palavra-passe mantém-se.',
    signature: 'Equipa do painel',
  },
  en: {
    subject: 'Reset your panel password',
    greeting: (name) => `Hello, ${name}.`,
    intro: 'We received a request to reset the password of your panel account.',
    action: 'Reset my password',
    expiry: (minutes) => `The link is valid for ${String(minutes)} minutes and can be used once.`,
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays the same.',
    signature: 'The panel team',
  },
};

/** The reset-link e-mail (docs/support-desk.md, Forgot password). */
export function resetLinkMail(
  locale: MailLocale,
  values: { name: string; link: string; minutes: number },
): MailContent {
  const w = RESET[locale];
  const text = [
    w.greeting(values.name),
    '',
    w.intro,
    '',
    `${w.action}: ${values.link}`,
    '',
    w.expiry(values.minutes),
    w.ignore,
    '',
    w.signature,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${e(locale)}">
<head><meta charset="utf-8"><title>${e(w.subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #1f2937; line-height: 1.5">
<p>${e(w.greeting(values.name))}</p>
<p>${e(w.intro)}</p>
<p><a href="${e(values.link)}" style="display: inline-block; padding: 10px 16px; background: #1d4ed8; color: #ffffff; border-radius: 6px; text-decoration: none">${e(w.action)}</a></p>
<p style="font-size: 13px; color: #4b5563">${e(values.link)}</p>
<p>${e(w.expiry(values.minutes))}<br>${e(w.ignore)}</p>
<p>${e(w.signature)}</p>
</body>
</html>
`;
  return { subject: w.subject, text, html };
}
