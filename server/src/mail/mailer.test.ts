import { startMailbox, type Mailbox } from './mailbox';
import { createMailer, type Mailer } from './mailer';
import { resetLinkMail } from './templates';

/** How mail goes out without and with SMTP_URL, in development and production (docs/operations.md, Mail). */
describe('createMailer', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
  });
  const keep = <T extends Mailer | Mailbox>(value: T): T => {
    opened.push(value);
    return value;
  };
  const content = resetLinkMail('pt-BR', {
    name: 'Ana',
    link: 'http://x.example/t/reset-password#token=t',
    minutes: 30,
  });

  it('in production without SMTP_URL sends nothing: disabled, and a send is refused', async () => {
    const mailer = keep(await createMailer({ smtpUrl: undefined, mailFrom: 'x@example.com', production: true }));
    expect(mailer.enabled).toBe(false);
    expect(mailer.mailbox).toBeNull();
    await expect(mailer.send({ to: 'ana@example.com', ...content })).rejects.toThrow(/disabled/);
  });

  it('in development without SMTP_URL sends to its own receiver on 127.0.0.1, which keeps the message', async () => {
    const mailer = keep(
      await createMailer({ smtpUrl: undefined, mailFrom: 'Painel <no-reply@example.com>', production: false }),
    );
    expect(mailer.enabled).toBe(true);
    expect(mailer.mailbox?.host).toBe('127.0.0.1');
    await mailer.send({ to: 'ana@example.com', ...content });
    const [message] = mailer.mailbox?.messages() ?? [];
    expect(message?.recipients).toEqual(['ana@example.com']);
    expect(message?.subject).toBe(content.subject);
    expect(message?.from).toContain('no-reply@example.com');
    expect(message?.text).toContain('#token=t');
    expect(message?.html).toContain('#token=t');
  });

  it('with SMTP_URL sends there, in production too', async () => {
    const receiver = keep(await startMailbox());
    const mailer = keep(
      await createMailer({
        smtpUrl: `smtp://${receiver.host}:${String(receiver.port)}`,
        mailFrom: 'no-reply@example.com',
        production: true,
      }),
    );
    expect(mailer.enabled).toBe(true);
    expect(mailer.mailbox).toBeNull();
    await mailer.send({ to: 'bia@example.com', ...content });
    const message = await receiver.next((m) => m.recipients.includes('bia@example.com'));
    expect(message.subject).toBe(content.subject);
  });

  it('keeps the newest messages only, newest first', async () => {
    const receiver = keep(await startMailbox());
    const mailer = keep(
      await createMailer({
        smtpUrl: `smtp://127.0.0.1:${String(receiver.port)}`,
        mailFrom: 'a@example.com',
        production: false,
      }),
    );
    await mailer.send({ to: 'one@example.com', ...content });
    await mailer.send({ to: 'two@example.com', ...content });
    expect(receiver.messages().map((m) => m.recipients[0])).toEqual(['two@example.com', 'one@example.com']);
  });
});
