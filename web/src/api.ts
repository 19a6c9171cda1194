import { clearToken, getToken } from './session.ts';

/** An error the console shows as is: the server's own message. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function send(path: string, init: RequestInit): Promise<unknown> {
  const token = getToken();
  const res = await fetch(path, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
  });
  const text = await res.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (res.status === 401) {
    clearToken();
    location.hash = '#/login';
  }
  if (!res.ok) {
    const message =
      (body as { message?: string; errors?: Array<{ message: string }> } | undefined)?.message ??
      (body as { errors?: Array<{ message: string }> })?.errors?.[0]?.message;
    throw new ApiError(message ?? `${res.status} ${res.statusText}`, res.status);
  }
  return body;
}

/** A GraphQL request; the first error, if any, is thrown with its message. */
export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = (await send('/api/graphql', { method: 'POST', body: JSON.stringify({ query, variables }) })) as {
    data?: T;
    errors?: Array<{ message: string; extensions?: { code?: number } }>;
  };
  if (body.errors?.length) throw new ApiError(body.errors[0]!.message, body.errors[0]!.extensions?.code ?? 400);
  return body.data as T;
}

/** A Rest.li action: `POST /<resource>?action=<name>`, answering its `value`. */
export async function action<T>(resource: string, name: string, params: Record<string, unknown> = {}): Promise<T> {
  const body = (await send(`/${resource}?action=${encodeURIComponent(name)}`, { method: 'POST', body: JSON.stringify(params) })) as { value: T };
  return body.value;
}

export async function getJson<T>(path: string): Promise<T> {
  return (await send(path, { method: 'GET' })) as T;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return (await send(path, { method: 'POST', body: JSON.stringify(body) })) as T;
}

export async function deleteJson<T>(path: string): Promise<T> {
  return (await send(path, { method: 'DELETE' })) as T;
}

export async function login(username: string, password: string): Promise<{ accessToken: string; actorUrn: string }> {
  return (await send('/logIn', { method: 'POST', body: JSON.stringify({ username, password }) })) as { accessToken: string; actorUrn: string };
}
