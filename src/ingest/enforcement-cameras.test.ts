import { describe, expect, it } from 'vitest';
import { MemberType, newTags } from './osm/osm-visitor.js';
import { isCameraNode, parseEnforcement } from './enforcement-cameras.js';

const tags = (entries: Record<string, string>) => Object.assign(newTags(), entries);

describe('parseEnforcement', () => {
  it('positions the camera at its device, else where the enforcement starts', () => {
    const members = [
      { type: MemberType.Node, ref: 2, role: 'from' },
      { type: MemberType.Node, ref: 1, role: 'device' },
      { type: MemberType.Way, ref: 3, role: 'to' },
    ];
    expect(parseEnforcement(5, members, tags({ type: 'enforcement', enforcement: 'maxspeed', maxspeed: '50' }))?.positionNodes).toEqual([1, 2]);
    expect(parseEnforcement(5, members.slice(0, 1), tags({ type: 'enforcement', enforcement: 'traffic_signals' }))?.positionNodes).toEqual([2]);
  });

  it('drops relations without a node to stand on or without enforcement=*', () => {
    expect(parseEnforcement(5, [{ type: MemberType.Way, ref: 3, role: 'to' }], tags({ type: 'enforcement', enforcement: 'maxspeed' }))).toBeUndefined();
    expect(parseEnforcement(5, [{ type: MemberType.Node, ref: 1, role: 'device' }], tags({ type: 'enforcement' }))).toBeUndefined();
  });
});

describe('isCameraNode', () => {
  it('takes speed cameras, enforcement nodes and traffic surveillance cameras, not other surveillance', () => {
    expect(isCameraNode(tags({ highway: 'speed_camera' }))).toBe(true);
    expect(isCameraNode(tags({ highway: 'traffic_signals', enforcement: 'traffic_signals' }))).toBe(true);
    expect(isCameraNode(tags({ man_made: 'surveillance', 'surveillance:zone': 'traffic', 'surveillance:type': 'camera' }))).toBe(true);
    expect(isCameraNode(tags({ man_made: 'surveillance', 'surveillance:zone': 'shop' }))).toBe(false);
    expect(isCameraNode(tags({ highway: 'traffic_signals' }))).toBe(false);
  });
});
