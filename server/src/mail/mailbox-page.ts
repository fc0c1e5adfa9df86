import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** An IPv4 loopback address (127/8), alone or IPv4-mapped, or ::1. */
function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Whether the request comes from this machine itself: a loopback connection that no proxy forwarded.
 * The page shows every reset link the server sent, so whoever reads it can take over any account; a
 * development server reachable from the network (HOST=0.0.0.0 without NODE_ENV=production: a container
 * started without it) must not hand that to whoever reaches the port, nor a proxy on the same machine
 * relay it.
 */
function fromThisMachine(request: FastifyRequest): boolean {
  return (
    isLoopback(request.socket.remoteAddress) &&
    request.headers['x-forwarded-for'] === undefined &&
    request.headers.forwarded === undefined
  );
}

const ELSEWHERE = {
  message:
    'The development mailbox answers only on the machine the server runs on (a loopback connection, no proxy); set SMTP_URL to send real mail',
};

/**
 * `/dev/mailbox`: the development receiver's messages (./mailbox.ts). Registered only when the server
 * started that receiver, which it never does with NODE_ENV=production (./mailer.ts), and answered only
 * on this machine ({@link fromThisMachine}; 403 otherwise). Every value shown is escaped; a message's
 * HTML part is served alone under a sandboxing Content-Security-Policy (no script, nothing fetched but
 * inline styles and data: images).
 */
export function registerMailboxPage(fastify: FastifyInstance, mailbox: Mailbox): void {
  fastify.get(MAILBOX_PATH, async (request, reply) => {
    if (!fromThisMachine(request)) return reply.code(403).send(ELSEWHERE);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(listPage(mailbox.messages()));
  });
  fastify.get<{ Params: { id: string } }>(`${MAILBOX_PATH}/:id`, async (request, reply) => {
    if (!fromThisMachine(request)) return reply.code(403).send(ELSEWHERE);
    const message = /^\d{1,9}$/.test(request.params.id) ? mailbox.message(Number(request.params.id)) : undefined;
    if (!message) return reply.code(404).send({ message: 'Not found' });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(messagePage(message));
  });
  fastify.get<{ Params: { id: string } }>(`${MAILBOX_PATH}/:id/html`, async (request, reply) => {
    if (!fromThisMachine(request)) return reply.code(403).send(ELSEWHERE);
    const message = /^\d{1,9}$/.test(request.params.id) ? mailbox.message(Number(request.params.id)) : undefined;
    if (!message?.html) return reply.code(404).send({ message: 'Not found' });
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:")
      .send(message.html);
  });
}
