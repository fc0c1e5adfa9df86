import createClient from 'openapi-fetch';
import type { paths } from '../generated/openapi';
import type { RestClient, RestClientOptions } from './rest-client';

/** Creates the typed REST client (openapi-fetch). The app loads this module on demand (src/app/app-services.ts). */
export function createRestClient(options: RestClientOptions = {}): RestClient {
  return createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
