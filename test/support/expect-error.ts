import { expect } from 'vitest';

/** The response is the API's error body (spec part 1, Conventions) with this status and code. */
export function expectError(response: { status: number; body: any }, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ statusCode: status, code, requestId: expect.any(String) });
}
