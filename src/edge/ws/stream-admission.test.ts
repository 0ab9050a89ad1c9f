import { describe, expect, it } from 'vitest';
import { StreamAdmission } from './stream-admission.js';

const limits = { maxPerUser: 2, maxPerKey: 3, maxPerIp: 4, maxUnauthenticatedPerIp: 2, authTimeoutMs: 1_000 };
const admission = () => new StreamAdmission(limits, (peer) => peer);
const user = (userId: string) => ({ kind: 'user' as const, userId, sessionId: 's', roles: [] });
const refusal = (limit: string, max: number) => expect.objectContaining({ code: 'TOO_MANY_STREAMS', details: { limit, max } });

describe('StreamAdmission', () => {
  it('counts sockets per address, waiting ones apart, and frees a waiting slot on authentication', () => {
    const streams = admission();
    const waiting = [streams.admit('10.0.0.1', false), streams.admit('10.0.0.1', false)];
    expect(() => streams.admit('10.0.0.1', false)).toThrow(refusal('unauthenticated_ip', 2));
    waiting[0]!.authenticated(user('u1'));
    const third = streams.admit('10.0.0.1', false);
    streams.admit('10.0.0.1', true);
    // four from the address now, whatever their state
    expect(() => streams.admit('10.0.0.1', true)).toThrow(refusal('ip', 4));
    expect(() => streams.admit('10.0.0.2', false)).not.toThrow();
    third.release();
    third.release();
    expect(() => streams.admit('10.0.0.1', true)).not.toThrow();
    expect(() => streams.admit('10.0.0.1', true)).toThrow(refusal('ip', 4));
  });

  it('counts sockets per user and per key, and frees them on release', () => {
    const streams = admission();
    const first = streams.admit('10.0.0.1', true);
    first.authenticated(user('u1'));
    streams.admit('10.0.0.2', true).authenticated(user('u1'));
    const third = streams.admit('10.0.0.3', true);
    expect(() => third.authenticated(user('u1'))).toThrow(refusal('user', 2));
    third.authenticated(user('u2'));
    for (let index = 0; index < 3; index++) streams.admit(`10.0.1.${index}`, true).authenticated({ kind: 'key', keyId: 'k1' });
    expect(() => streams.admit('10.0.1.9', true).authenticated({ kind: 'key', keyId: 'k1' })).toThrow(refusal('key', 3));
    first.release();
    expect(() => streams.admit('10.0.0.4', true).authenticated(user('u1'))).not.toThrow();
  });
});
