import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';

describe('ApiError', () => {
  it("captures no stack for a client's mistake (4xx: cheap to refuse a flood) and keeps it for a server fault (5xx)", () => {
    const refused = new ApiError('RATE_LIMITED', { headers: { 'retry-after': '1' } });
    expect(refused.stack).not.toMatch(/\n\s+at /);
    expect(refused).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: 'Too many requests' });
    const fault = new ApiError('SERVICE_UNAVAILABLE');
    expect(fault.stack).toMatch(/\n\s+at /);
    // the process-wide limit is left as it was
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });
});
