import { describe, expect, it } from 'vitest';
import { TransitStopRole } from '../datapack/pack-layout.js';
import { MemberType, newTags, type OsmMember } from './osm/osm-visitor.js';
import { chainWays, isTransitRoute, parseTransitRoute } from './transit-routes.js';

const tags = (entries: Record<string, string>) => Object.assign(newTags(), entries);
const way = (ref: number, role = ''): OsmMember => ({ type: MemberType.Way, ref, role });
const node = (ref: number, role = ''): OsmMember => ({ type: MemberType.Node, ref, role });

describe('isTransitRoute', () => {
  it('takes public transport routes and leaves roads, hiking and ferries', () => {
    for (const route of ['bus', 'trolleybus', 'tram', 'subway', 'train', 'light_rail', 'share_taxi', 'minibus']) expect(isTransitRoute(tags({ type: 'route', route }))).toBe(true);
    for (const route of ['road', 'hiking', 'ferry', 'bicycle']) expect(isTransitRoute(tags({ type: 'route', route }))).toBe(false);
    expect(isTransitRoute(tags({ type: 'route_master', route_master: 'bus', route: 'bus' }))).toBe(false);
  });
});

describe('parseTransitRoute', () => {
  it('keeps line ways and stop/platform nodes in member order, and leaves platform ways out of the line', () => {
    const route = parseTransitRoute(
      7,
      [node(1, 'stop'), node(2, 'platform_entry_only'), way(10), way(11, 'forward'), way(12, 'platform'), node(3), node(4, 'label'), { type: MemberType.Relation, ref: 9, role: '' }],
      tags({ type: 'route', route: 'bus' }),
    );
    expect(route?.ways).toEqual([10, 11]);
    expect(route?.stops).toEqual([
      { ref: 1, role: TransitStopRole.stop },
      { ref: 2, role: TransitStopRole.platform },
      { ref: 3, role: TransitStopRole.unspecified },
    ]);
  });

  it('drops a route with neither ways nor stops', () => {
    expect(parseTransitRoute(8, [{ type: MemberType.Relation, ref: 9, role: '' }], tags({ type: 'route', route: 'bus' }))).toBeUndefined();
  });
});

describe('chainWays', () => {
  it('orients ways to follow one another, turning the first round when it meets the second at its start', () => {
    expect(chainWays([[2, 1], [2, 3, 4], [5, 4]])).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('joins sections listed out of order where their ends meet, and keeps apart what meets nowhere', () => {
    expect(chainWays([[1, 2], [5, 6], [2, 3], [3, 4, 5], [20, 21]])).toEqual([[1, 2, 3, 4, 5, 6], [20, 21]]);
  });

  it('skips degenerate ways', () => {
    expect(chainWays([[1], [1, 2]])).toEqual([[1, 2]]);
  });
});
