import { describe, expect, it } from 'vitest';
import { MANEUVER_ICONS, ManeuverType, maneuverTypeCatalogue } from './maneuver-types.js';

describe('maneuver type catalogue', () => {
  it("lists Valhalla's 39 codes in order with the spec's known entries", () => {
    const { types, junctionWindowTypes, decisionExcludedTypes } = maneuverTypeCatalogue();
    expect(types.map((type) => type.code)).toEqual(Array.from({ length: 39 }, (_, index) => index));
    const byCode = new Map(types.map((type) => [type.code, type.name]));
    expect([0, 1, 4, 10, 15, 26].map((code) => byCode.get(code))).toEqual(['none', 'start', 'destination', 'right', 'left', 'roundabout-enter']);
    expect(types.every((type) => (MANEUVER_ICONS as readonly string[]).includes(type.icon) && type.description.length > 0)).toBe(true);
    expect(new Set(types.map((type) => type.name)).size).toBe(39);
    expect(junctionWindowTypes).toEqual([10, 11, 15, 16]);
    expect(decisionExcludedTypes).toEqual([0, 1, 4]);
  });

  it('matches the ManeuverType constants (kMergeLeft = 38, kRoundaboutEnter = 26)', () => {
    const { types } = maneuverTypeCatalogue();
    expect(Object.values(ManeuverType).sort((a, b) => a - b)).toEqual(types.map((type) => type.code));
    expect(ManeuverType.mergeLeft).toBe(38);
    expect(ManeuverType.roundaboutEnter).toBe(26);
    expect(ManeuverType.uturnLeft).toBe(13);
  });

  it('hands out copies (callers cannot change the catalogue)', () => {
    const first = maneuverTypeCatalogue();
    first.types[0]!.name = 'changed';
    first.junctionWindowTypes.push(99);
    expect(maneuverTypeCatalogue().types[0]!.name).toBe('none');
    expect(maneuverTypeCatalogue().junctionWindowTypes).toEqual([10, 11, 15, 16]);
  });
});

describe('turn lanes', () => {
  // Tag values from the OSM wiki's turn:lanes examples (no shipped extract carries turn:lanes).
  it('parses turn:lanes and marks the lanes a maneuver can use', async () => {
    const { parseTurnLanes } = await import('./lanes.js');
    expect(parseTurnLanes('left|through|through;right', ManeuverType.right)).toEqual([
      { indications: ['left'], valid: false },
      { indications: ['through'], valid: false },
      { indications: ['through', 'right'], valid: true },
    ]);
    expect(parseTurnLanes('left;reverse||right', ManeuverType.uturnLeft).map((lane) => lane.valid)).toEqual([true, false, false]);
    expect(parseTurnLanes('left||', ManeuverType.continue).map((lane) => [lane.indications, lane.valid])).toEqual([
      [['left'], false],
      [['none'], true],
      [['none'], true],
    ]);
    expect(parseTurnLanes('slight_left|slight_right', ManeuverType.stayRight).map((lane) => lane.valid)).toEqual([false, true]);
  });
});
