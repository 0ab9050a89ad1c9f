import { readJson } from './services.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  // Bodies are asserted field by field: tests read arbitrary shapes.
  body: any;
}

/** A small JSON client for black-box tests: `api.post('/auth/login', body, token)`. */
export function apiClient(baseUrl: string) {
  const call = async (method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<ApiResponse> => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string, token?: string, headers?: Record<string, string>) => call('GET', path, undefined, token, headers),
    post: (path: string, body?: unknown, token?: string, headers?: Record<string, string>) => call('POST', path, body ?? {}, token, headers),
    patch: (path: string, body: unknown, token?: string) => call('PATCH', path, body, token),
    delete: (path: string, token?: string) => call('DELETE', path, undefined, token),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

let counter = 0;
/** A fresh, unique e-mail address per call. */
export function uniqueEmail(label = 'user'): string {
  return `${label}.${process.pid}.${Date.now().toString(36)}.${counter++}@example.jo`;
}

export const PASSWORD = 'correct horse battery staple';

export async function registerUser(api: ApiClient, label = 'user'): Promise<{ email: string; token: string; userId: string; sessionId: string }> {
  const email = uniqueEmail(label);
  const response = await api.post('/auth/register', { email, password: PASSWORD, name: label });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { email, token: response.body.accessToken, userId: response.body.user.id, sessionId: response.body.sessionId };
}
