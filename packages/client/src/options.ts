import type { Middleware } from 'openapi-fetch';

/** Connection options shared by every client of this package. */
export interface ClientOptions {
  /**
   * Address of the API including its base path, e.g. `https://pc.internal:9440/api/svc/v3`
   * (or a Prism mock's origin). http and https only.
   */
  baseUrl: string;
  /** User name for HTTP basic authentication. */
  username: string;
  /** Password for HTTP basic authentication. Never logged or included in errors. */
  password: string;
  /** A fetch implementation to use instead of the global one (tests, proxies). */
  fetch?: (input: Request) => Promise<Response>;
}

/** Thrown when client options are missing or malformed; names the option and the rule. */
export class ClientOptionsError extends TypeError {
  override name = 'ClientOptionsError';
  constructor(
    /** The option that is wrong, e.g. `baseUrl`. */
    readonly option: keyof ClientOptions,
    rule: string,
  ) {
    super(`client option "${option}" ${rule}`);
  }
}

/**
 * Checks client options and returns the base URL without a trailing slash.
 * @throws {ClientOptionsError} when `baseUrl` is not an http(s) URL or credentials are missing
 */
export function checkOptions(options: ClientOptions): string {
  if (options === null || typeof options !== 'object') {
    throw new ClientOptionsError('baseUrl', 'is required: pass { baseUrl, username, password }');
  }
  const { baseUrl, username, password } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') {
    throw new ClientOptionsError('baseUrl', 'must be a non-empty string such as https://host:9440/api/svc/v3');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ClientOptionsError('baseUrl', `must be an absolute URL; got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientOptionsError('baseUrl', `must use http or https; got "${url.protocol}"`);
  }
  if (url.username || url.password) {
    throw new ClientOptionsError('baseUrl', 'must not carry credentials; pass username and password instead');
  }
  if (typeof username !== 'string' || username === '') {
    throw new ClientOptionsError('username', 'must be a non-empty string');
  }
  if (username.includes(':')) {
    throw new ClientOptionsError('username', 'must not contain ":" (basic authentication separates it from the password)');
  }
  if (typeof password !== 'string') {
    throw new ClientOptionsError('password', 'must be a string');
  }
  return baseUrl.replace(/\/+$/, '');
}

/**
 * openapi-fetch middleware that adds `Authorization: Basic ...` to every request.
 * The encoded value is kept in a closure, not on any enumerable property.
 */
export function basicAuth(username: string, password: string): Middleware {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const header = `Basic ${btoa(binary)}`;
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', header);
      return request;
    },
  };
}
