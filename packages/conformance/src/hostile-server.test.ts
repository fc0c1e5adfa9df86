import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './cli.js';
import { MAX_ANSWER_BYTES } from './kit-client.js';

/**
 * The kit runs in other teams' CI against servers nobody here controls (docs/conformance.md): facing a
 * hostile or broken one it must fail the right check or exit 3, within its timeouts, without a stack
 * trace, and without sending the administrador's credentials anywhere but the server it was given.
 */

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const servers: Server[] = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => handler(request, response, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const PASSWORD = 'S3cret-admin-PW';

async function runKit(address: string, extra: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['--base-url', `http://${address}`, '--email', 'admin@example.test', '--password', PASSWORD, ...extra],
    { env: {}, out: (text) => out.push(text), err: (text) => err.push(text) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the kit facing a hostile server', () => {
  it('does not follow a redirect: the sign-in never re-sends the password to another origin', async () => {
    const elsewhere: string[] = [];
    const other = await serve((request, response, body) => {
      elsewhere.push(`${request.method ?? ''} ${request.url ?? ''} ${body}`);
      response.writeHead(404).end();
    });
    // `localhost` and 127.0.0.1 are two origins; a 307 keeps the method and the body.
    const port = other.split(':')[1] ?? '';
    const target = await serve((request, response) => {
      response.writeHead(307, { location: `http://localhost:${port}${request.url ?? '/'}` }).end();
    });
    const { code, out } = await runKit(target, ['--timeout', '3000']);
    expect(elsewhere).toEqual([]);
    expect(code).toBe(3);
    expect(out).toMatch(/authLogin +rest +307 .*FAIL/);
    expect(out).toContain('expected HTTP 200, got 307');
    expect(out).not.toContain(PASSWORD);
  });

  it('stops reading an answer beyond its limit and fails that check, without exhausting its memory', async () => {
    // Chunked (no content-length): the limit holds on the bytes read, not on what the server declares.
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const oversized = MAX_ANSWER_BYTES / chunk.length + 4;
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const pump = (): void => {
        while (sent < oversized) {
          sent += 1;
          if (!response.write(chunk)) return;
        }
        response.end('{}');
      };
      response.on('drain', pump);
      pump();
    });
    const { code, out } = await runKit(target, ['--timeout', '20000']);
    expect(code).toBe(3);
    expect(out).toMatch(/healthLive +rest +0 .*FAIL/);
    expect(out).toContain(`longer than the kit reads (${MAX_ANSWER_BYTES} bytes)`);
  }, 60_000);

  it('refuses an answer whose declared length is over the limit without reading it', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 ** 3) });
      response.write('{');
    });
    const { code, out } = await runKit(target, ['--timeout', '20000']);
    expect(code).toBe(3);
    expect(out).toContain(`declares ${10 * 1024 ** 3} bytes, more than the kit reads`);
    expect(out).not.toContain('within 20000 ms');
  }, 30_000);

  it('bounds the body read by the per-request timeout: a server that hangs after the headers or drips', async () => {
    const hanging = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":');
    });
    const started = performance.now();
    const hung = await runKit(hanging, ['--timeout', '300']);
    expect(hung.code).toBe(3);
    expect(hung.out).toContain('no answer to GET /healthz within 300 ms');
    const dripping = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => response.write(' '), 50);
      response.on('close', () => clearInterval(timer));
    });
    const dripped = await runKit(dripping, ['--timeout', '300']);
    expect(dripped.code).toBe(3);
    expect(dripped.out).toContain('no answer to POST /api/auth/login within 300 ms');
    // Three requests of each run, each bounded: nowhere near the 5 s a test may take.
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('reads invalid, __proto__-laden and deeply nested JSON as a failed check, never a crash', async () => {
    const answers = [
      '{"status": ok',
      '{"__proto__":{"polluted":true},"status":"ok","access_token":"x"}',
      `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
    ];
    for (const text of answers) {
      const target = await serve((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(text);
      });
      const { code, out, err } = await runKit(target, ['--timeout', '3000']);
      expect(code).toBe(3);
      expect(out).toMatch(/healthLive +rest +200 .*FAIL/);
      expect(err).toBe('');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('keeps the terminal safe from escape sequences and the JUnit report well formed', async () => {
    const target = await serve((_request, response) => {
      response
        .writeHead(500, { 'content-type': 'text/plain' })
        .end('\u001b[2J\u001b]0;pwned\u0007]]></failure><x a="\u0000');
    });
    const dir = mkdtempSync(join(tmpdir(), 'conformance-hostile-'));
    try {
      const { code, out } = await runKit(target, ['--timeout', '3000', '--junit', join(dir, 'r.xml')]);
      expect(code).toBe(3);
      expect(out).toContain('expected HTTP 200, got 500');
      // No control character but the line ends reaches the terminal (a clear screen, a title change).
      expect(out.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the command facing a wrong environment', () => {
  it('says why a server cannot be reached, with exit code 3', async () => {
    const address = await serve((_request, response) => response.end());
    const server = servers.pop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    const { code, out } = await runKit(address, ['--timeout', '1000']);
    expect(code).toBe(3);
    expect(out).toContain('request failed: fetch failed: ECONNREFUSED');
  });

  it('says so, with exit code 2, when a report cannot be written, before calling the server', async () => {
    const calls: string[] = [];
    const target = await serve((request, response) => {
      calls.push(request.url ?? '');
      response.writeHead(503).end();
    });
    for (const flag of ['--junit', '--json']) {
      const { code, err } = await runKit(target, ['--timeout', '1000', flag, '/nonexistent-dir/report.out']);
      expect(code).toBe(2);
      expect(err).toContain(`${flag} /nonexistent-dir/report.out`);
      expect(err).not.toMatch(/\n\s+at /);
    }
    expect(calls).toEqual([]);
  });

  it('refuses --only/--skip that leave no group (the sign-in alone would pass), before calling the server', async () => {
    const calls: string[] = [];
    const target = await serve((request, response) => {
      calls.push(request.url ?? '');
      response.writeHead(503).end();
    });
    const { code, err } = await runKit(target, ['--only', 'tenants', '--skip', 'tenants']);
    expect(code).toBe(2);
    expect(err).toContain('no group left to run');
    expect(calls).toEqual([]);
  });

  it('refuses a timeout that a timer cannot hold (it would fire at once)', async () => {
    const target = await serve((_request, response) => response.writeHead(503).end());
    for (const timeout of ['3000000000', '1e20']) {
      const { code, err } = await runKit(target, ['--timeout', timeout]);
      expect(code).toBe(2);
      expect(err).toContain(`--timeout ${timeout}`);
    }
  });
});
