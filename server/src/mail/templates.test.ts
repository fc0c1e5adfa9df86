import MailComposer from 'nodemailer/lib/mail-composer';
import { parseMessage } from './mime';
import { escapeHtml, MAIL_LOCALES, resetLinkMail } from './templates';

/** Builds the message as nodemailer sends it, so the parts are read back as a receiver sees them. */
async function built(content: { subject: string; text: string; html: string }): Promise<string> {
  const mail = new MailComposer({ from: 'Painel <no-reply@example.com>', to: 'ana@example.com', ...content });
  const raw = await new Promise<Buffer>((resolve, reject) =>
    mail.compile().build((error, message) => (error ? reject(error) : resolve(message))),
  );
  return raw.toString('utf8');
}

describe('reset-link e-mail', () => {
  const link = 'https://painel.example.com/farmacia/reset-password#token=abc_DEF-123';

  it.each(MAIL_LOCALES)('%s: text and HTML parts carry the link, the name and the 30 minutes', async (locale) => {
    const content = resetLinkMail(locale, { name: 'Ana Souza', link, minutes: 30 });
    const parsed = parseMessage(await built(content));
    expect(parsed.subject).toBe(content.subject);
    expect(parsed.text).toContain(link);
    expect(parsed.text).toContain('Ana Souza');
    expect(parsed.text).toContain('30');
    expect(parsed.html).toContain(`href="${link}"`);
    expect(parsed.html).toContain(`lang="${locale}"`);
  });

  it('speaks each language: the three subjects differ', () => {
    const subjects = MAIL_LOCALES.map((l) => resetLinkMail(l, { name: 'x', link, minutes: 30 }).subject);
    expect(new Set(subjects).size).toBe(3);
    expect(subjects[0]).toMatch(/senha/);
    expect(subjects[1]).toMatch(/palavra-passe/);
    expect(subjects[2]).toMatch(/password/);
  });

  it('escapes every value put into the HTML', () => {
    const hostile = '<script>alert("x")</script> & \'quoted\'';
    const content = resetLinkMail('pt-BR', {
      name: hostile,
      link: 'https://x.example/"><img src=x onerror=alert(1)>',
      minutes: 30,
    });
    expect(content.html).not.toContain('<script>');
    expect(content.html).not.toContain('"><img');
    expect(content.html).toContain(escapeHtml(hostile));
    // The text part is plain text: the name as typed.
    expect(content.text).toContain(hostile);
  });

  it('escapeHtml covers the five characters that matter in content and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('parseMessage', () => {
  it('reads encoded subjects and non-ASCII bodies back exactly', async () => {
    const content = {
      subject: 'Redefinição de senha — ação',
      text: 'Olá, João! Ação: ✓\nlinha 2',
      html: '<p>Olá, João</p>',
    };
    const parsed = parseMessage(await built(content));
    expect(parsed.subject).toBe(content.subject);
    expect(parsed.text?.replace(/\r?\n$/, '')).toBe(content.text);
    expect(parsed.html?.trim()).toBe(content.html);
    expect(parsed.to).toBe('ana@example.com');
  });

  it('reads a single-part message and long lines of quoted-printable', async () => {
    const long = `${'palavra '.repeat(40)}fim é`;
    const mail = new MailComposer({ from: 'a@example.com', to: 'b@example.com', subject: 'x', text: long });
    const raw = await new Promise<Buffer>((resolve, reject) =>
      mail.compile().build((error, message) => (error ? reject(error) : resolve(message))),
    );
    const parsed = parseMessage(raw.toString('utf8'));
    // The message ends with a line break, which is not part of the text.
    expect(parsed.text?.replace(/\n$/, '')).toBe(long);
    expect(parsed.html).toBeNull();
  });
});
