import type { FastifyInstance } from 'fastify';
import type { Mailbox, ReceivedMessage } from './mailbox';
import { escapeHtml as e } from './templates';

/** Where the development mailbox is shown. */
export const MAILBOX_PATH = '/dev/mailbox';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title></head>
<body>
${body}
</body>
</html>
`;
}

function listPage(messages: readonly ReceivedMessage[]): string {
  const rows = messages
    .map(
      (m) =>
        `<tr><td>${e(m.receivedAt)}</td><td>${e(m.recipients.join(', '))}</td><td><a href="${MAILBOX_PATH}/${String(m.id)}">${e(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('\n');
  return page(
    'Mailbox (development)',
    `<h1>Mailbox (development)</h1>
<p>Messages this development server sent to its local SMTP receiver, newest first (at most 200, kept in memory until the server stops). Set <code>SMTP_URL</code> to send real mail.</p>
${
  messages.length === 0
    ? '<p>No messages yet.</p>'
    : `<table>
<thead><tr><th scope="col">Received</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}`,
  );
}

function messagePage(m: ReceivedMessage): string {
  return page(
    m.subject || '(no subject)',
    `<p><a href="${MAILBOX_PATH}">← Mailbox</a></p>
<h1>${e(m.subject || '(no subject)')}</h1>
<dl>
<dt>From</dt><dd>${e(m.from)}</dd>
<dt>To</dt><dd>${e(m.recipients.join(', '))}</dd>
<dt>Received</dt><dd>${e(m.receivedAt)}</dd>
</dl>
<h2>Text part</h2>
<pre>${e(m.text ?? '(none)')}</pre>
<h2>HTML part</h2>
${m.html === null ? '<p>(none)</p>' : `<p><a href="${MAILBOX_PATH}/${String(m.id)}/html">Open the HTML part as the recipient sees it</a></p><pre>${e(m.html)}</pre>`}
<h2>Source</h2>
<pre>${e(m.raw)}</pre>`,
  );
}

/**
 * `/dev/mailbox`: the development receiver's messages (./mailbox.ts). Registered only when the server
 * started that receiver, which it never does with NODE_ENV=production (./mailer.ts). Every value shown
 * is escaped; a message's HTML part is served alone under a sandboxing Content-Security-Policy (no
 * script, nothing fetched but inline styles and data: images).
 */
export function registerMailboxPage(fastify: FastifyInstance, mailbox: Mailbox): void {
  fastify.get(MAILBOX_PATH, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(listPage(mailbox.messages())),
  );
  fastify.get<{ Params: { id: string } }>(`${MAILBOX_PATH}/:id`, async (request, reply) => {
    const message = /^\d{1,9}$/.test(request.params.id) ? mailbox.message(Number(request.params.id)) : undefined;
    if (!message) return reply.code(404).send({ message: 'Not found' });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(messagePage(message));
  });
  fastify.get<{ Params: { id: string } }>(`${MAILBOX_PATH}/:id/html`, async (request, reply) => {
    const message = /^\d{1,9}$/.test(request.params.id) ? mailbox.message(Number(request.params.id)) : undefined;
    if (!message?.html) return reply.code(404).send({ message: 'Not found' });
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:")
      .send(message.html);
  });
}
