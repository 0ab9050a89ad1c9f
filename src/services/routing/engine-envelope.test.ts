import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import { EngineFailure, EngineOutages, outageReasonOf, retryAfterOf, unavailableEnvelope } from './engine-envelope.js';

/** A logger that keeps its lines. */
function recordingLogger() {
  const lines: { level: number; msg: string; refused?: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { logger, lines };
}

describe('which failures are the engine\'s', () => {
  it.each([
    [new ApiError('COMPUTATION_TIMEOUT'), 'timeout'],
    [new ApiError('SERVER_BUSY'), 'busy'],
    [new ApiError('SERVICE_UNAVAILABLE'), 'engine_error'],
    [new EngineFailure('worker died', 'worker_failed', { cause: new Error('boom') }), 'engine_error'],
  ] as const)('%s is an outage: %s', (error, reason) => {
    expect(outageReasonOf(error)).toBe(reason);
  });

  it.each([new ApiError('NO_ROUTE'), new ApiError('NO_ROAD_NEARBY'), new ApiError('COSTING_UNAVAILABLE'), new ApiError('CLIENT_CLOSED_REQUEST'), new TypeError('a bug')])(
    '%s is answered as it is',
    (error) => expect(outageReasonOf(error)).toBeUndefined(),
  );
});

describe('EngineOutages.answer', () => {
  it('passes the answer through, and turns an outage into the envelope with the request and the reason', async () => {
    const outages = new EngineOutages(pino({ level: 'silent' }));
    expect(await outages.answer('/routing/route', {}, async () => 'trip')).toBe('trip');
    const request = { locations: [{ lat: 30, lon: 31 }] };
    const busy = await outages.answer('/routing/matrix', request, () => Promise.reject(new ApiError('SERVER_BUSY')));
    expect(busy).toEqual({ provider: 'svc', available: false, path: '/routing/matrix', request, reason: 'busy', retryAfterSeconds: 1 });
    expect(retryAfterOf(busy)).toBe(1);
    const failed = await outages.answer('/routing/plan', request, () => Promise.reject(new EngineFailure('x', 'worker_failed')));
    expect(failed).toEqual({ provider: 'svc', available: false, path: '/routing/plan', request, reason: 'engine_error' });
    expect(retryAfterOf(failed)).toBeUndefined();
  });

  it('throws input errors, a client that left and bugs on as they are', async () => {
    const outages = new EngineOutages(pino({ level: 'silent' }));
    for (const error of [new ApiError('NO_ROUTE'), new ApiError('CLIENT_CLOSED_REQUEST'), new TypeError('a bug')]) {
      await expect(outages.answer('/routing/route', {}, () => Promise.reject(error))).rejects.toBe(error);
    }
    // thrown before any promise, too
    const sync = new ApiError('COSTING_UNAVAILABLE');
    await expect(
      outages.answer('/routing/plan', {}, () => {
        throw sync;
      }),
    ).rejects.toBe(sync);
  });

  it('logs an engine failure as an error, and a flood of busy answers once per 10 s with their count', async () => {
    const { logger, lines } = recordingLogger();
    let nowMs = 0;
    const outages = new EngineOutages(logger, () => nowMs);
    await outages.answer('/routing/route', {}, () => Promise.reject(new EngineFailure('worker died', 'worker_failed')));
    expect(lines.map((line) => line.level)).toEqual([50]);
    for (let index = 0; index < 5; index++) await outages.answer('/routing/route', {}, () => Promise.reject(new ApiError('SERVER_BUSY')));
    nowMs = 10_000;
    await outages.answer('/routing/route', {}, () => Promise.reject(new ApiError('SERVER_BUSY')));
    expect(lines.slice(1).map((line) => [line.level, line.refused])).toEqual([
      [40, 1],
      [40, 5],
    ]);
  });
});

describe('the envelope', () => {
  it('says when to retry only where retrying soon helps', () => {
    expect(unavailableEnvelope('/p', null, 'timeout').retryAfterSeconds).toBe(1);
    expect(unavailableEnvelope('/p', null, 'unreachable').retryAfterSeconds).toBeUndefined();
    expect(retryAfterOf({ available: true, retryAfterSeconds: 1 })).toBeUndefined();
    expect(retryAfterOf(null)).toBeUndefined();
  });
});
