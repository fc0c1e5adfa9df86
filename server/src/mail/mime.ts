/**
 * Just enough of MIME (RFC 2045–2047) to read back the messages this server sends: headers (folded
 * lines, encoded words), a single part or a multipart/alternative or /mixed tree, and the
 * quoted-printable, base64, 7bit and 8bit transfer encodings, in UTF-8. The development mailbox
 * (./mailbox.ts) shows received messages with it, and tests read links out of the text part.
 */

export interface ParsedMessage {
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  date: string;
  text: string | null;
  html: string | null;
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers: Record<string, string> = {};
  // A line starting with white space continues the header before it.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** A header's value after `;`-separated parameters: `boundary`, `charset`… */
function parameter(header: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}=(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(header);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function decodeQuotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i += 1) {
    const c = soft[i];
    const hex = soft.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body).toString('utf8');
  return part.body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); white space between two of them goes. */
export function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function collect(part: Part, found: { text: string | null; html: string | null }): void {
  const type = part.headers['content-type'] ?? 'text/plain';
  if (/^multipart\//i.test(type)) {
    const boundary = parameter(type, 'boundary');
    if (!boundary) return;
    const pieces = part.body.split(`--${boundary}`);
    // Before the first boundary is the preamble; from `--boundary--` on, the epilogue.
    for (const piece of pieces.slice(1)) {
      if (piece.startsWith('--')) break;
      collect(splitPart(piece.replace(/^\n/, '').replace(/\n$/, '')), found);
    }
    return;
  }
  if (/^text\/plain/i.test(type) && found.text === null) found.text = decodeBody(part);
  else if (/^text\/html/i.test(type) && found.html === null) found.html = decodeBody(part);
}

export function parseMessage(raw: string): ParsedMessage {
  const top = splitPart(raw);
  const found: { text: string | null; html: string | null } = { text: null, html: null };
  collect(top, found);
  const header = (name: string) => decodeHeader(top.headers[name] ?? '');
  return {
    headers: top.headers,
    subject: header('subject'),
    from: header('from'),
    to: header('to'),
    date: header('date'),
    text: found.text,
    html: found.html,
  };
}
