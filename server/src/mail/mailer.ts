import nodemailer, { type Transporter } from 'nodemailer';
import type { ServerConfig } from '../base/config';
import { startMailbox, type Mailbox } from './mailbox';
import type { MailContent } from './templates';

export interface OutgoingMail extends MailContent {
  to: string;
}

/**
 * How the server sends mail (docs/support-desk.md, Forgot password; docs/operations.md, Mail):
 * - SMTP_URL set: nodemailer's SMTP transport to it;
 * - unset, in development: a local receiver (./mailbox.ts) on 127.0.0.1 the transport sends to, its
 *   messages listed at `/dev/mailbox`, so nothing is silently dropped;
 * - unset, in production: none. `enabled` is false and `send` refuses: reset links are disabled.
 */
export interface Mailer {
  enabled: boolean;
  /** The development receiver, when the server started one. */
  mailbox: Mailbox | null;
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

export const disabledMailer: Mailer = {
  enabled: false,
  mailbox: null,
  send: () => Promise.reject(new Error('mail is disabled: no SMTP_URL in production')),
  close: () => Promise.resolve(),
};

function mailerOver(transport: Transporter, from: string, mailbox: Mailbox | null): Mailer {
  return {
    enabled: true,
    mailbox,
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    async close() {
      transport.close();
      await mailbox?.close();
    },
  };
}

export async function createMailer(config: Pick<ServerConfig, 'smtpUrl' | 'mailFrom' | 'production'>): Promise<Mailer> {
  if (config.smtpUrl) return mailerOver(nodemailer.createTransport(config.smtpUrl), config.mailFrom, null);
  if (config.production) return disabledMailer;
  const mailbox = await startMailbox();
  // The receiver speaks plain SMTP on the loopback interface: no TLS to negotiate.
  const transport = nodemailer.createTransport({
    host: mailbox.host,
    port: mailbox.port,
    secure: false,
    ignoreTLS: true,
  });
  return mailerOver(transport, config.mailFrom, mailbox);
}
