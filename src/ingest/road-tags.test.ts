import { describe, expect, it } from 'vitest';
import { EdgeFlag, TravelMode } from '../datapack/pack-layout.js';
import { nodeBlockedModes, parseDurationSeconds, parseLength, parseSpeed, parseWeight, roadAttributes } from './road-tags.js';

const { car, foot, bicycle, truck, bus, wheelchair } = TravelMode;

describe('roadAttributes', () => {
  it('ignores ways that are not roads', () => {
    expect(roadAttributes({ building: 'yes' })).toBeUndefined();
    expect(roadAttributes({ highway: 'proposed' })).toBeUndefined();
    expect(roadAttributes({ highway: 'pedestrian', area: 'yes' })).toBeUndefined();
  });

  it('keeps cars and trucks on motorways and people off them; motorways are implied one-way', () => {
    const road = roadAttributes({ highway: 'motorway' })!;
    expect(road.forward & (car | truck)).toBe(car | truck);
    expect(road.forward & (foot | bicycle)).toBe(0);
    expect(road.backward).toBe(0);
    expect(road.flags & EdgeFlag.highway).toBeTruthy();
  });

  it('applies oneway to vehicles, not to pedestrians, with per-mode exceptions', () => {
    const road = roadAttributes({ highway: 'residential', oneway: 'yes', 'oneway:bicycle': 'no' })!;
    expect(road.forward & car).toBeTruthy();
    expect(road.backward & car).toBe(0);
    expect(road.backward & foot).toBeTruthy();
    expect(road.backward & bicycle).toBeTruthy();
    const reverse = roadAttributes({ highway: 'residential', oneway: '-1' })!;
    expect(reverse.forward & car).toBe(0);
    expect(reverse.backward & car).toBeTruthy();
    const bus_lane = roadAttributes({ highway: 'primary', oneway: 'yes', 'oneway:bus': 'no' })!;
    expect(bus_lane.backward & bus).toBeTruthy();
    expect(bus_lane.backward & car).toBe(0);
  });

  it('treats a roundabout as one-way and flags it', () => {
    const road = roadAttributes({ highway: 'tertiary', junction: 'roundabout' })!;
    expect(road.backward & car).toBe(0);
    expect(road.flags & EdgeFlag.roundabout).toBeTruthy();
  });

  it('follows the access hierarchy: access → vehicle → motor_vehicle → the specific mode', () => {
    const road = roadAttributes({ highway: 'service', access: 'no', foot: 'yes', bus: 'designated' })!;
    expect(road.forward & car).toBe(0);
    expect(road.forward & foot).toBeTruthy();
    expect(road.forward & bus).toBeTruthy();
    expect(roadAttributes({ highway: 'residential', motor_vehicle: 'no' })!.forward & (car | truck)).toBe(0);
    expect(roadAttributes({ highway: 'residential', hgv: 'no' })!.forward & truck).toBe(0);
    // a general "yes" does not put cars on a footway
    expect(roadAttributes({ highway: 'footway', access: 'yes' })!.forward & car).toBe(0);
    expect(roadAttributes({ highway: 'residential', access: 'private' })!.flags & EdgeFlag.destinationOnly).toBeTruthy();
  });

  it('keeps wheelchairs off steps unless tagged, and off ways tagged wheelchair=no', () => {
    expect(roadAttributes({ highway: 'steps' })!.forward & wheelchair).toBe(0);
    expect(roadAttributes({ highway: 'steps', wheelchair: 'yes' })!.forward & wheelchair).toBeTruthy();
    expect(roadAttributes({ highway: 'footway', wheelchair: 'no' })!.forward & wheelchair).toBe(0);
    expect(roadAttributes({ highway: 'footway' })!.forward & wheelchair).toBeTruthy();
  });

  it('reads speed, lanes, turn lanes, surface, toll, bridge and truck limits', () => {
    const road = roadAttributes({
      highway: 'primary',
      maxspeed: '80',
      lanes: '3',
      'lanes:forward': '2',
      'turn:lanes:forward': 'left|through',
      surface: 'gravel',
      toll: 'yes',
      bridge: 'yes',
      maxweight: '7.5',
      maxheight: '4.2 m',
    })!;
    expect(road.speed).toBe(80);
    expect(road.maxspeed).toBe(80);
    expect(road.lanesForward).toBe(2);
    expect(road.lanesBackward).toBe(1);
    expect(road.turnLanesForward).toBe('left|through');
    expect(road.flags & (EdgeFlag.unpaved | EdgeFlag.toll | EdgeFlag.bridge)).toBe(EdgeFlag.unpaved | EdgeFlag.toll | EdgeFlag.bridge);
    expect(road.maxWeight).toBe(7.5);
    expect(road.maxHeight).toBeCloseTo(4.2);
    expect(road.truckTagged).toBe(true);
    expect(roadAttributes({ highway: 'residential' })!.speed).toBe(25); // class default
    expect(roadAttributes({ highway: 'secondary', lanes: '4' })!).toMatchObject({ lanesForward: 2, lanesBackward: 2 });
    expect(roadAttributes({ highway: 'secondary', lanes: '3', oneway: 'yes' })!).toMatchObject({ lanesForward: 3, lanesBackward: 0 });
    expect(roadAttributes({ highway: 'track' })!.flags & EdgeFlag.unpaved).toBeTruthy();
  });

  it('opens ferries to foot and bicycles, and to cars only when tagged', () => {
    const ferry = roadAttributes({ route: 'ferry' })!;
    expect(ferry.flags & EdgeFlag.ferry).toBeTruthy();
    expect(ferry.forward & car).toBe(0);
    expect(ferry.forward & foot).toBeTruthy();
    expect(roadAttributes({ route: 'ferry', motorcar: 'yes' })!.forward & car).toBeTruthy();
  });
});

describe('tag value parsers', () => {
  it.each([
    ['50', 50],
    ['30 mph', 48.28],
    ['60 km/h', 60],
    ['EG:urban', 0],
    ['none', 0],
    ['50;30', 50],
  ])('maxspeed %s → %d km/h', (value, expected) => expect(parseSpeed(value)).toBeCloseTo(expected, 1));

  it.each([
    ['7.5', 7.5],
    ['7.5 t', 7.5],
    ['5000 kg', 5],
    ['3,5', 3.5],
    ['heavy', 0],
  ])('maxweight %s → %d t', (value, expected) => expect(parseWeight(value)).toBeCloseTo(expected, 3));

  it.each([
    ['4', 4],
    ['4.2 m', 4.2],
    ['13\'6"', 4.1148],
    ['default', 0],
  ])('maxheight %s → %d m', (value, expected) => expect(parseLength(value)).toBeCloseTo(expected, 3));

  it.each([
    ['1:30', 5400],
    ['00:45:30', 2730],
    ['20', 1200],
    ['soon', 0],
  ])('ferry duration %s → %d s', (value, expected) => expect(parseDurationSeconds(value)).toBe(expected));
});

describe('nodeBlockedModes', () => {
  it('stops cars at bollards but lets people and bicycles through', () => {
    const blocked = nodeBlockedModes({ barrier: 'bollard' });
    expect(blocked & car).toBeTruthy();
    expect(blocked & (foot | bicycle)).toBe(0);
  });

  it('lets everyone through an open gate, nobody through one tagged access=no', () => {
    expect(nodeBlockedModes({ barrier: 'gate' })).toBe(0);
    expect(nodeBlockedModes({ barrier: 'gate', access: 'no' }) & (car | foot)).toBe(car | foot);
    expect(nodeBlockedModes({ highway: 'traffic_signals' })).toBe(0);
  });
});
