import { describe, expect, it } from 'vitest';
import { parseConstraints } from './ai-helpers.js';

describe('parseConstraints', () => {
  it('reads English constraints', () => {
    const parsed = parseConstraints('No tolls, deliver between 9am and 12pm, the truck is 4.2 m high and weighs 12 tons, no left turns; avoid the city centre. Also sing.');
    expect(parsed.constraints).toMatchObject({ avoid: ['tolls'], timeWindows: [{ start: '09:00', end: '12:00' }], vehicle: { heightM: 4.2, weightT: 12 }, noLeftTurns: true, avoidAreas: ['city_centre'] });
    expect(parsed.unparsed).toEqual(['also sing']);
  });
  it('reads Arabic constraints', () => {
    const parsed = parseConstraints('بدون طرق سريعة، التوصيل بعد الساعة ٢ الظهر، بدون لف لليسار وتجنب وسط البلد، أقصر طريق');
    expect(parsed.constraints).toMatchObject({ avoid: ['highways'], timeWindows: [{ start: '14:00', end: null }], noLeftTurns: true, avoidAreas: ['city_centre'] });
    expect(parsed.plan).toMatchObject({ avoid: ['highways'], preference: 'shortest' });
  });
});
