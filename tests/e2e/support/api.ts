/**
 * A tiny client for the reference server, used to prepare data and to inject faults. Journeys act
 * through the browser; this only sets the stage (a user to block, a fault to hit) and reads state
 * the UI must agree with.
 */
export interface Api {
  token: string;
  rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  graphql<T = unknown>(query: string, variables?: Record<string, unknown>, operationName?: string): Promise<T>;
}

export async function apiLogin(origin: string, email: string, password: string, tenant = 'backoffice'): Promise<Api> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, ip: null }),
  });
  if (!response.ok) throw new Error(`login ${email}: HTTP ${response.status} ${await response.text()}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  return {
    token,
    async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${origin}${path}`, {
        method,
        // No content type without a body: the server refuses an empty JSON body (a DELETE's).
        headers: body === undefined ? { authorization: headers.authorization } : headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    async graphql<T>(query: string, variables: Record<string, unknown> = {}, operationName?: string): Promise<T> {
      const res = await fetch(`${origin}/${tenant}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, variables, operationName }),
      });
      const json = (await res.json()) as { data?: T; errors?: unknown[] };
      if (!res.ok || json.errors)
        throw new Error(`graphql ${operationName ?? ''}: HTTP ${res.status} ${JSON.stringify(json.errors)}`);
      return json.data as T;
    },
  };
}

/** A fault rule for the test-only endpoint (server/src/plugins/faults.ts; FAULT_INJECTION=1). */
export interface FaultRule {
  operationId: string;
  match?: Record<string, unknown>;
  status: number;
  times?: number;
}

export async function addFault(origin: string, rule: FaultRule): Promise<void> {
  const res = await fetch(`${origin}/__test/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  if (res.status !== 201) throw new Error(`fault injection refused: HTTP ${res.status} ${await res.text()}`);
}

/** The active fault rules with how often each fired. */
export async function listFaults(origin: string): Promise<(FaultRule & { id: number; fired: number })[]> {
  const res = await fetch(`${origin}/__test/faults`);
  return ((await res.json()) as { rules: (FaultRule & { id: number; fired: number })[] }).rules;
}
