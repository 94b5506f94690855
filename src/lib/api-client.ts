// The one HTTP client of the SPA (DESIGN.md: the only ky import). SPEC.md §7:
// - every call times out after 5000 ms with the error 'Timeout';
// - calls carry 'Authorization: <type> <token>' from local storage;
// - on 401 or 406 the client calls GET /auth/refresh/ once, stores result.access_token and retries the call
//   once; if the refresh fails the stored token is cleared ('Token error: {status}' or 'Network error' in
//   the console);
// - transport errors are classed FETCH_ERROR, TIMEOUT_ERROR or PARSING_ERROR; a server error's message is
//   its `detail`, else 'unknown error'.
import ky, { HTTPError, TimeoutError, type KyInstance, type Options } from 'ky';
import type { z } from 'zod';
import { API_TIMEOUT_MS } from '../config/constants';
import { StorageKey } from '../config/storage-keys';

export const ApiErrorKind = {
  HTTP_ERROR: 'HTTP_ERROR',
  FETCH_ERROR: 'FETCH_ERROR',
  TIMEOUT_ERROR: 'TIMEOUT_ERROR',
  PARSING_ERROR: 'PARSING_ERROR',
} as const;
export type ApiErrorKind = (typeof ApiErrorKind)[keyof typeof ApiErrorKind];

/** The request time-out message of SPEC.md §8. */
const TIMEOUT_MESSAGE = 'Timeout';
/** The message of a server error without a `detail` (SPEC.md §8). */
export const UNKNOWN_ERROR_MESSAGE = 'unknown error';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function getStoredToken(): string | null {
  return localStorage.getItem(StorageKey.ACCESS_TOKEN);
}

/** Stores the token as 'type token' (SPEC.md §3 access_token). */
export function storeToken(tokenType: string, accessToken: string): void {
  localStorage.setItem(StorageKey.ACCESS_TOKEN, `${tokenType} ${accessToken}`);
}

export function clearStoredToken(): void {
  localStorage.removeItem(StorageKey.ACCESS_TOKEN);
}

const REFRESH_STATUSES = new Set([401, 406]);
const REFRESH_PATH = 'auth/refresh/';
/** Calls whose 401 means "wrong credentials", never "expired token": no refresh for them. */
const NO_REFRESH_PATHS = ['auth/login/', REFRESH_PATH, 'user/'];

const baseOptions: Options = { timeout: API_TIMEOUT_MS, retry: 0, credentials: 'same-origin' };

/** Per call: a longer wait than API_TIMEOUT_MS for a request known to take long (the what-if replay). */
export interface CallOptions {
  timeoutMs?: number;
  /** Sent with fetch's keepalive: the request completes even if the page is closed meanwhile (a saved edit). */
  keepalive?: boolean;
}

export interface ApiClient {
  get<T extends z.ZodType>(
    path: string,
    schema: T,
    searchParams?: Record<string, string | number>,
    options?: CallOptions,
  ): Promise<z.infer<T>>;
  post<T extends z.ZodType>(
    path: string,
    body: unknown,
    schema: T,
    options?: CallOptions,
  ): Promise<z.infer<T>>;
  delete<T extends z.ZodType>(path: string, schema: T, body?: unknown): Promise<z.infer<T>>;
  /** GET of a file (a CSV or JSON download): its text as the server sent it, unparsed. */
  getText(path: string, searchParams?: Record<string, string | number>): Promise<string>;
  /** GET /auth/refresh/ (concurrent callers share one); false when it failed and the token was cleared. */
  refresh(): Promise<boolean>;
}

/** Relative prefixes ('/api') resolve against the page, so the client also works where Request needs a full URL. */
function absolutePrefix(prefixUrl: string): string {
  const base = globalThis.location?.href ?? 'http://localhost/';
  const url = new URL(prefixUrl, base).href;
  return url.endsWith('/') ? url : `${url}/`;
}

function requestPath(request: Request, prefix: string): string {
  return request.url.startsWith(prefix) ? request.url.slice(prefix.length) : request.url;
}

async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof TimeoutError) return new ApiError(ApiErrorKind.TIMEOUT_ERROR, TIMEOUT_MESSAGE);
  if (error instanceof HTTPError) {
    let detail = UNKNOWN_ERROR_MESSAGE;
    try {
      const body = (await error.response.clone().json()) as { detail?: unknown };
      if (typeof body.detail === 'string' && body.detail) detail = body.detail;
    } catch {
      // Not JSON: keep 'unknown error'.
    }
    return new ApiError(ApiErrorKind.HTTP_ERROR, detail, error.response.status);
  }
  return new ApiError(ApiErrorKind.FETCH_ERROR, error instanceof Error ? error.message : String(error));
}

async function parse<T extends z.ZodType>(response: Response, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    const text = await response.text();
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(ApiErrorKind.PARSING_ERROR, 'Invalid JSON in answer', response.status);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new ApiError(
      ApiErrorKind.PARSING_ERROR,
      `${issue?.message ?? 'Unexpected answer'}${where}`,
      response.status,
    );
  }
  return parsed.data;
}

/** A client for the API under `prefixUrl` ('/api' in the app; a test server's URL in tests). */
export function createApiClient(prefixUrl: string): ApiClient {
  const prefix = absolutePrefix(prefixUrl);
  const plain: KyInstance = ky.create({ ...baseOptions, prefixUrl: prefix });
  // Concurrent 401s share one refresh call.
  let refreshing: Promise<boolean> | undefined;

  async function refreshToken(): Promise<boolean> {
    try {
      const headers: Record<string, string> = {};
      const current = getStoredToken();
      if (current) headers.Authorization = current;
      const body = await plain
        .get(REFRESH_PATH, { headers })
        .json<{ result?: { access_token?: unknown; token_type?: unknown } }>();
      const accessToken = body.result?.access_token;
      if (typeof accessToken !== 'string' || !accessToken) throw new Error('no access_token');
      const tokenType =
        typeof body.result?.token_type === 'string' && body.result.token_type
          ? body.result.token_type
          : getStoredToken()?.split(' ')[0] || 'bearer';
      storeToken(tokenType, accessToken);
      return true;
    } catch (error) {
      console.error(error instanceof HTTPError ? `Token error: ${error.response.status}` : 'Network error');
      clearStoredToken();
      return false;
    }
  }

  function refreshOnce(): Promise<boolean> {
    refreshing ??= refreshToken().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  const client = plain.extend({
    hooks: {
      beforeRequest: [
        (request) => {
          const token = getStoredToken();
          if (token) request.headers.set('Authorization', token);
        },
      ],
      afterResponse: [
        // The retry below goes through bare ky, without these hooks, so a call is retried at most once.
        async (request, _options, response) => {
          if (!REFRESH_STATUSES.has(response.status)) return response;
          if (NO_REFRESH_PATHS.includes(requestPath(request, prefix))) return response;
          if (!getStoredToken()) return response;
          if (!(await refreshOnce())) return response;
          const retry = new Request(request, { headers: new Headers(request.headers) });
          retry.headers.set('Authorization', getStoredToken() ?? '');
          return ky(retry, baseOptions);
        },
      ],
    },
  });

  async function call<T extends z.ZodType>(send: () => Promise<Response>, schema: T): Promise<z.infer<T>> {
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      throw await toApiError(error);
    }
    return parse(response, schema);
  }

  return {
    get: (path, schema, searchParams, options) =>
      call(
        () =>
          client.get(path, {
            searchParams,
            ...(options?.timeoutMs ? { timeout: options.timeoutMs } : {}),
          }),
        schema,
      ),
    post: (path, body, schema, options) =>
      call(
        () => client.post(path, { json: body, ...(options?.keepalive ? { keepalive: true } : {}) }),
        schema,
      ),
    delete: (path, schema, body) =>
      call(() => client.delete(path, body === undefined ? {} : { json: body }), schema),
    getText: async (path, searchParams) => {
      try {
        return await (await client.get(path, { searchParams })).text();
      } catch (error) {
        throw await toApiError(error);
      }
    },
    refresh: refreshOnce,
  };
}

/** The API of the app, under /api (DESIGN.md "How things run"). */
export const API_PREFIX = '/api';
const api = createApiClient(API_PREFIX);

/**
 * fetch for the exchange client's signed requests through our relay (/api/exchange_relay/…, docs/relay.md):
 * the stored access token goes along, and a 401 or 406 the relay gave itself (`relayHeader` on the answer:
 * nothing was forwarded, so the same signed request may go again) refreshes the token once and retries. A 401
 * of the exchange (-2015, the key refused) is its answer and goes back to the client as it is.
 */
export function createRelayFetch(relayHeader: string): typeof fetch {
  const withToken = (input: RequestInfo | URL, init: RequestInit | undefined): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const token = getStoredToken();
    if (token) headers.set('Authorization', token);
    return fetch(input, { ...init, headers, credentials: 'same-origin' });
  };
  return async (input, init) => {
    const response = await withToken(input, init);
    if (!REFRESH_STATUSES.has(response.status) || !response.headers.get(relayHeader)) return response;
    if (!getStoredToken() || !(await api.refresh())) return response;
    return withToken(input, init);
  };
}

/** GET /api/{path}, the answer parsed with a contracts schema. */
export function apiGet<T extends z.ZodType>(
  path: string,
  schema: T,
  searchParams?: Record<string, string | number>,
  options?: CallOptions,
) {
  return api.get(path, schema, searchParams, options);
}

/** GET /api/{path} of a file: its text, unparsed (the history export). */
export function apiGetText(path: string, searchParams?: Record<string, string | number>) {
  return api.getText(path, searchParams);
}

/** POST /api/{path} with a JSON body, the answer parsed with a contracts schema. */
export function apiPost<T extends z.ZodType>(path: string, body: unknown, schema: T, options?: CallOptions) {
  return api.post(path, body, schema, options);
}

/** DELETE /api/{path}, with an optional JSON body, the answer parsed with a contracts schema. */
export function apiDelete<T extends z.ZodType>(path: string, schema: T, body?: unknown) {
  return api.delete(path, schema, body);
}
