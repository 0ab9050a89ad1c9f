import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('masks secret parameters however their names are encoded or cased, and nothing else', () => {
    expect(redactUrl('/geo?lat=1&%61pi_key=svc_x&API_KEY=svc_y&apiKey=svc_z&access%5Ftoken=t&q=api')).toBe(
      `/geo?lat=1&%61pi_key=${REDACTED}&API_KEY=${REDACTED}&apiKey=${REDACTED}&access%5Ftoken=${REDACTED}&q=api`,
    );
    expect(redactUrl('/geo?x-api-key=a&authorization&code=c&state=s&id_token=i&idToken=j')).toBe(
      `/geo?x-api-key=${REDACTED}&authorization=${REDACTED}&code=${REDACTED}&state=${REDACTED}&id_token=${REDACTED}&idToken=${REDACTED}`,
    );
    expect(redactUrl('/health')).toBe('/health');
    expect(redactUrl('/geocode/search?q=cairo&limit=5')).toBe('/geocode/search?q=cairo&limit=5');
    expect(redactUrl('/x?api+key=1&%zz=2')).toBe('/x?api+key=1&%zz=2');
  });
});

describe('redactHeaders', () => {
  it('masks credential headers and keeps the rest', () => {
    expect(redactHeaders({ 'x-api-key': 'svc_x', authorization: 'Bearer t', cookie: 'c', 'user-agent': 'curl' })).toEqual({
      'x-api-key': REDACTED,
      authorization: REDACTED,
      cookie: REDACTED,
      'user-agent': 'curl',
    });
  });
});
