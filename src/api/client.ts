/**
 * The fetch client for the server's `/api/be/...`, `/tiles/...` and `/icons/...` paths.
 * Every failure, a network error or an HTTP error, becomes one `ApiError` carrying the
 * status and the server's `{ error, message }` body when it sent one.
 */

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached or the body was unreadable. */
  readonly status: number;
  /** The server's short error code (`error` field), or a client-side one. */
  readonly code: string;
  readonly url: string;
  /** The server's parsed JSON error body, when it sent one (e.g. the current marker of a 409). */
  readonly body: unknown;

  constructor(url: string, status: number, code: string, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.url = url;
    this.status = status;
    this.code = code;
    this.body = body;
  }

  /** True when the server could not be reached at all. */
  get offline(): boolean {
    return this.status === 0;
  }
}

let apiBase = '';

/** Prefix for every request (default '': same origin). Tests and embedders may point it elsewhere. */
export function setApiBase(base: string): void {
  apiBase = base.replace(/\/$/, '');
}

export function apiUrl(path: string): string {
  return `${apiBase}${path}`;
}

async function errorFrom(url: string, response: Response): Promise<ApiError> {
  let code = `http_${response.status}`;
  let message = response.statusText || `HTTP ${response.status}`;
  let body: { error?: unknown; message?: unknown } | undefined;
  try {
    body = (await response.json()) as { error?: unknown; message?: unknown };
    if (typeof body?.error === 'string') code = body.error;
    if (typeof body?.message === 'string') message = body.message;
  } catch {
    // Not a JSON error body: keep the status text.
  }
  return new ApiError(url, response.status, code, message, body);
}

/** Fetches `path` and returns the response when it is 2xx; throws ApiError otherwise. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const url = apiUrl(path);
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', ...init });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(url, 0, 'network', `Could not reach the server (${(error as Error)?.message ?? 'network error'})`);
  }
  if (!response.ok) throw await errorFrom(url, response);
  return response;
}

export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await request(path, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError(apiUrl(path), response.status, 'bad_json', 'The server sent a response that is not valid JSON');
  }
}

/** The raw body, for data parsed off the main thread. */
export async function getArrayBuffer(path: string, init?: RequestInit): Promise<ArrayBuffer> {
  const response = await request(path, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  try {
    return await response.arrayBuffer();
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(apiUrl(path), response.status, 'network', 'The response was cut off');
  }
}

export function isAbort(error: unknown): boolean {
  return (error as Error)?.name === 'AbortError';
}

/**
 * A state-changing call: the body (if any) goes as JSON, which the server requires of every
 * such call (its CSRF rule). Answers the parsed JSON body, or throws ApiError.
 */
export async function sendJson<T>(path: string, method: 'POST' | 'PUT' | 'DELETE', body?: unknown, init?: RequestInit): Promise<T> {
  const response = await request(path, {
    ...init,
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', ...init?.headers },
    body: JSON.stringify(body ?? {}),
  });
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError(apiUrl(path), response.status, 'bad_json', 'The server sent a response that is not valid JSON');
  }
}
