import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { decodePolyline, parseBbox, parseColor, parseMarkers, parsePath, parseSize } from './static-map-params.js';

describe('static map parameters', () => {
  it('reads sizes within 1..1280 and refuses the rest', () => {
    expect(parseSize('600x400')).toEqual({ ok: true, value: { width: 600, height: 400 } });
    expect(parseSize('1280x1280').ok).toBe(true);
    expect(parseSize('1281x10')).toMatchObject({ ok: false, message: expect.stringContaining('1 to 1280') });
    expect(parseSize('0x10').ok).toBe(false);
    expect(parseSize('600*400').ok).toBe(false);
  });

  it('reads colours as #rrggbbaa', () => {
    expect(parseColor('0xff0000')).toEqual({ ok: true, value: '#ff0000ff' });
    expect(parseColor('0x00ff0080')).toEqual({ ok: true, value: '#00ff0080' });
    expect(parseColor('#ABCDEF')).toEqual({ ok: true, value: '#abcdefff' });
    expect(parseColor('red')).toEqual({ ok: true, value: '#e53935ff' });
    expect(parseColor('reddish').ok).toBe(false);
  });

  it('reads marker groups: options, then points', () => {
    expect(parseMarkers('color:blue|label:A|size:small|30.06,31.33|30.07,31.34')).toEqual({
      ok: true,
      value: { color: '#1e88e5ff', label: 'A', size: 'small', points: [{ lat: 30.06, lng: 31.33 }, { lat: 30.07, lng: 31.34 }] },
    });
    expect(parseMarkers('color:blue').ok).toBe(false);
    expect(parseMarkers('label:ABC|30,31').ok).toBe(false);
    expect(parseMarkers('shape:star|30,31').ok).toBe(false);
    expect(parseMarkers('95,31').ok).toBe(false);
  });

  it('reads paths from points and from polylines of precision 5 and 6 (which may hold |)', () => {
    const line: [number, number][] = [[30.06, 31.33], [30.0612, 31.3345], [30.07, 31.34]];
    const five = polyline.encode(line, 5);
    const six = polyline.encode(line, 6);
    const decoded = parsePath(`color:0xff00ff|weight:4|enc:${five}`);
    expect(decoded.ok && decoded.value.coordinates.map(([lng, lat]) => [lat, lng])).toEqual(line);
    expect(decoded.ok && [decoded.value.color, decoded.value.weightPx]).toEqual(['#ff00ffff', 4]);
    const precise = parsePath(`enc6:${six}`);
    expect(precise.ok && precise.value.coordinates.map(([lng, lat]) => [lat, lng])).toEqual(line);
    expect(parsePath('30.06,31.33|30.07,31.34')).toMatchObject({ ok: true, value: { coordinates: [[31.33, 30.06], [31.34, 30.07]] } });
    // a polyline holding the separator still decodes whole
    let delta = 0.00001;
    while (!polyline.encode([[30, 31], [30 + delta, 31]], 5).includes('|')) delta += 0.00001;
    const withBar = polyline.encode([[30, 31], [30 + delta, 31]], 5);
    expect(withBar).toContain('|');
    expect(parsePath(`enc:${withBar}`).ok).toBe(true);
  });

  it('refuses bad polylines with a reason', () => {
    expect(decodePolyline('', 5)).toMatchObject({ ok: false });
    expect(decodePolyline('abc def', 5)).toMatchObject({ ok: false, message: expect.stringContaining('character') });
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`', 5)).toMatchObject({ ok: false, message: expect.stringContaining('ends inside a value') });
    // a precision-6 polyline read as precision 5 leaves the globe
    expect(decodePolyline(polyline.encode([[30.06, 31.33], [60, 170]], 6), 5)).toMatchObject({ ok: false, message: expect.stringContaining('precision') });
    expect(parsePath('enc:_p~iF~ps|U').ok).toBe(false);
    expect(parsePath('30.06,31.33')).toMatchObject({ ok: false, message: expect.stringContaining('at least 2 points') });
  });

  it('reads boxes west,south,east,north', () => {
    expect(parseBbox('31.30,30.04,31.38,30.09')).toEqual({ ok: true, value: [31.3, 30.04, 31.38, 30.09] });
    expect(parseBbox('31.38,30.04,31.30,30.09').ok).toBe(false);
    expect(parseBbox('1,2,3').ok).toBe(false);
  });
});
