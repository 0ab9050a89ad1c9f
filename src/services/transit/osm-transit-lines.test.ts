import { describe, expect, it } from 'vitest';
import { TransitStopRole } from '../../datapack/pack-layout.js';
import { hexColour, lineStops } from './osm-transit-lines.js';

const stop = (osmId: number, role: number, lat: number, lng = 7.42) => ({ osmId, role, lat, lng });
const served = new Map([1, 2, 3, 4, 5].map((id) => [id, { id: `osm-node-${id}` }]));

describe('lineStops', () => {
  it('makes one stop of a PTv2 stop position and its platform, named by the platform', () => {
    // 1 (stop) and 2 (platform) 11 m apart: one stop; 3 (stop) and 4 (platform) likewise, 1 km further
    const ids = lineStops([stop(1, TransitStopRole.stop, 43.73), stop(2, TransitStopRole.platform, 43.7301), stop(3, TransitStopRole.stop, 43.74), stop(4, TransitStopRole.platform, 43.7401)], served);
    expect(ids).toEqual(['osm-node-2', 'osm-node-4']);
  });

  it('keeps two stops of different roles that are far apart, and every PTv1 stop', () => {
    expect(lineStops([stop(1, TransitStopRole.stop, 43.73), stop(2, TransitStopRole.platform, 43.74)], served)).toEqual(['osm-node-1', 'osm-node-2']);
    expect(lineStops([stop(1, TransitStopRole.unspecified, 43.73), stop(2, TransitStopRole.unspecified, 43.7301)], served)).toEqual(['osm-node-1', 'osm-node-2']);
  });

  it('leaves out members that are not served stops', () => {
    expect(lineStops([stop(9, TransitStopRole.stop, 43.73), stop(5, TransitStopRole.stop, 43.75)], served)).toEqual(['osm-node-5']);
  });
});

describe('hexColour', () => {
  it('serves hex colours as GTFS ones are served and drops the rest', () => {
    expect(hexColour('#f2b600')).toBe('#F2B600');
    expect(hexColour('0a0')).toBe('#00AA00');
    expect(hexColour('red')).toBeNull();
    expect(hexColour(undefined)).toBeNull();
  });
});
