import { ApiError } from '../../api/api-error';
import {
  endpointProblems,
  endpointRefusal,
  isObviouslyPrivateHost,
  serverUrlProblem,
  urlProblem,
} from './webhook-endpoint-checks';

describe('urlProblem: what the form refuses before sending', () => {
  it.each([
    ['', 'webhooks.endpoints.errors.urlRequired'],
    ['   ', 'webhooks.endpoints.errors.urlRequired'],
    ['erp.farmacia.com.br/hook', 'webhooks.endpoints.errors.urlInvalid'],
    ['ftp://erp.farmacia.com.br/hook', 'webhooks.endpoints.errors.urlNotHttps'],
    ['https://user:pw@erp.farmacia.com.br/hook', 'webhooks.endpoints.errors.urlInvalid'],
    ['https://erp.farmacia.com.br/hook#x', 'webhooks.endpoints.errors.urlInvalid'],
    [`https://erp.farmacia.com.br/${'a'.repeat(2048)}`, 'webhooks.endpoints.errors.urlTooLong'],
    ['https://erp.farmacia.com.br/hook', null],
    // http and loopback are the server's to refuse: it allows them in development and tests.
    ['http://127.0.0.1:4000/hook', null],
  ])('%s → %s', (url, expected) => {
    expect(urlProblem(url)).toBe(expected);
  });
});

describe("serverUrlProblem: the server's 400 on url, worded by the address", () => {
  it.each([
    ['not a url', 'webhooks.endpoints.errors.urlInvalid'],
    ['http://erp.farmacia.com.br/hook', 'webhooks.endpoints.errors.urlNotHttps'],
    ['https://10.0.0.5/hook', 'webhooks.endpoints.errors.urlNotPublic'],
    ['https://intranet.example/hook', 'webhooks.endpoints.errors.urlNotPublic'],
  ])('%s → %s', (url, expected) => {
    expect(serverUrlProblem(url)).toBe(expected);
  });
});

describe('isObviouslyPrivateHost', () => {
  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['8.8.8.8', false],
    ['[::1]', true],
    ['[fd00::1]', true],
    ['[fe80::1]', true],
    ['[2001:db8::1]', false],
    ['erp.farmacia.com.br', false],
  ])('%s → %s', (host, expected) => {
    expect(isObviouslyPrivateHost(host)).toBe(expected);
  });
});

describe('endpointProblems and endpointRefusal', () => {
  const fields = { url: 'https://erp.farmacia.com.br/hook', types: ['sent' as const], description: '' };

  it('asks for a type and a short description', () => {
    expect(endpointProblems({ ...fields, types: [] })).toEqual({ types: 'webhooks.endpoints.errors.typesRequired' });
    expect(endpointProblems({ ...fields, description: 'x'.repeat(201) })).toEqual({
      description: 'webhooks.endpoints.errors.descriptionTooLong',
    });
    expect(endpointProblems(fields)).toEqual({});
  });

  it('puts each refusal beside its field', () => {
    const conflict = (error: string) => new ApiError(409, { message: 'no', error });
    expect(endpointRefusal(conflict('webhook_endpoint_taken'), fields, 'apiErrors.conflict')).toEqual({
      url: 'webhooks.refusals.endpointTaken',
    });
    expect(endpointRefusal(conflict('webhook_endpoint_limit'), fields, 'apiErrors.conflict')).toEqual({
      form: 'webhooks.refusals.endpointLimit',
    });
    const invalid = new ApiError(400, {
      message: 'Validation failed',
      errors: [{ field: 'body/url', message: 'the host resolves to a private address' }],
    });
    expect(endpointRefusal(invalid, fields, 'apiErrors.validation')).toEqual({
      url: 'webhooks.endpoints.errors.urlNotPublic',
    });
    expect(
      endpointRefusal(invalid, { ...fields, url: 'http://erp.farmacia.com.br/hook' }, 'apiErrors.validation'),
    ).toEqual({
      url: 'webhooks.endpoints.errors.urlNotHttps',
    });
    expect(endpointRefusal(new ApiError(503, null), fields, 'apiErrors.unavailable')).toEqual({
      form: 'apiErrors.unavailable',
    });
  });
});
