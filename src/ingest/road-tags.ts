/**
 * How OSM tags on a way become routing attributes: class, per-mode access in
 * each direction, speed, flags and truck limits. The defaults follow the OSM
 * wiki's worldwide access defaults (wiki.openstreetmap.org/wiki/OSM_tags_for_routing/Access_restrictions)
 * and the usual class speeds for Middle-East cities; docs/data-pack.md lists them.
 */
import { EdgeFlag, MOTOR_MODES, ROAD_CLASSES, TravelMode, type RoadClass } from '../datapack/pack-layout.js';
import type { OsmTags } from './osm/osm-visitor.js';

const { car, foot, bicycle, motorScooter, truck, wheelchair, bus, taxi } = TravelMode;
const VEHICLES = car | bicycle | motorScooter | truck | bus | taxi;
const ALL = VEHICLES | foot | wheelchair;

/** Default access and car speed (km/h) per class. */
const CLASS_DEFAULTS: Record<RoadClass, { access: number; speed: number }> = {
  motorway: { access: car | truck | bus | taxi, speed: 100 },
  trunk: { access: ALL, speed: 80 },
  primary: { access: ALL, speed: 60 },
  secondary: { access: ALL, speed: 50 },
  tertiary: { access: ALL, speed: 40 },
  unclassified: { access: ALL, speed: 30 },
  residential: { access: ALL, speed: 25 },
  service: { access: ALL, speed: 15 },
  living_street: { access: ALL, speed: 10 },
  track: { access: ALL & ~wheelchair, speed: 15 },
  road: { access: ALL, speed: 30 },
  busway: { access: bus, speed: 40 },
  pedestrian: { access: foot | wheelchair, speed: 5 },
  footway: { access: foot | wheelchair, speed: 5 },
  path: { access: foot | bicycle | wheelchair, speed: 5 },
  cycleway: { access: bicycle | foot | wheelchair, speed: 15 },
  steps: { access: foot, speed: 3 },
  bridleway: { access: foot, speed: 5 },
  ferry: { access: foot | bicycle, speed: 15 },
};

const LINK_SPEEDS: Partial<Record<RoadClass, number>> = { motorway: 60, trunk: 50, primary: 40, secondary: 35, tertiary: 30 };

const HIGHWAY_CLASSES: Record<string, RoadClass> = {
  motorway: 'motorway',
  motorway_link: 'motorway',
  trunk: 'trunk',
  trunk_link: 'trunk',
  primary: 'primary',
  primary_link: 'primary',
  secondary: 'secondary',
  secondary_link: 'secondary',
  tertiary: 'tertiary',
  tertiary_link: 'tertiary',
  unclassified: 'unclassified',
  residential: 'residential',
  service: 'service',
  living_street: 'living_street',
  track: 'track',
  road: 'road',
  busway: 'busway',
  bus_guideway: 'busway',
  pedestrian: 'pedestrian',
  footway: 'footway',
  path: 'path',
  cycleway: 'cycleway',
  steps: 'steps',
  bridleway: 'bridleway',
  corridor: 'footway',
};

const UNPAVED = new Set([
  'unpaved', 'compacted', 'gravel', 'fine_gravel', 'pebblestone', 'dirt', 'earth', 'ground', 'grass', 'grass_paver',
  'mud', 'sand', 'rock', 'salt', 'ice', 'snow', 'woodchips', 'wood',
]);
const DENIED = new Set(['no', 'agricultural', 'forestry', 'emergency', 'military', 'use_sidepath', 'dismount']);
const DESTINATION = new Set(['destination', 'delivery', 'customers', 'private']);

export interface RoadAttributes {
  class: RoadClass;
  classIndex: number;
  /** Modes allowed along the way's digitised direction, and against it. */
  forward: number;
  backward: number;
  /** Car speed, km/h. */
  speed: number;
  /** Tagged limit, km/h, 0 = none. */
  maxspeed: number;
  flags: number;
  lanesForward: number;
  lanesBackward: number;
  turnLanesForward?: string;
  turnLanesBackward?: string;
  maxWeight: number;
  maxHeight: number;
  maxWidth: number;
  maxLength: number;
  /** Whether the way carries any truck-specific tag (hgv or a limit). */
  truckTagged: boolean;
}

/** The road attributes of a way, or undefined when it is not routable for any mode. */
export function roadAttributes(tags: OsmTags): RoadAttributes | undefined {
  const highway = tags.highway;
  const isFerry = tags.route === 'ferry';
  const roadClass: RoadClass | undefined = isFerry ? 'ferry' : highway ? HIGHWAY_CLASSES[highway] : undefined;
  if (!roadClass) return undefined;
  if (!isFerry && tags.area === 'yes') return undefined;
  if (tags.construction && tags.highway === 'construction') return undefined;

  const defaults = CLASS_DEFAULTS[roadClass];
  let access = isFerry ? ferryAccess(tags) : defaults.access;
  access = applyAccessTags(tags, access);
  if (tags.highway === 'steps' && tags.wheelchair === 'yes') access |= wheelchair;

  let flags = 0;
  const isLink = !!highway?.endsWith('_link');
  if (isLink) flags |= EdgeFlag.link;
  if (isFerry) flags |= EdgeFlag.ferry;
  if (roadClass === 'motorway' || roadClass === 'trunk') flags |= EdgeFlag.highway;
  if (isYes(tags.toll) || isYes(tags['toll:motorcar'])) flags |= EdgeFlag.toll;
  if (tags.bridge && tags.bridge !== 'no') flags |= EdgeFlag.bridge;
  if (tags.tunnel && tags.tunnel !== 'no') flags |= EdgeFlag.tunnel;
  const junction = tags.junction;
  const roundabout = junction === 'roundabout' || junction === 'circular';
  if (roundabout) flags |= EdgeFlag.roundabout;
  if (isUnpaved(tags, roadClass)) flags |= EdgeFlag.unpaved;
  if (motorDestinationOnly(tags)) flags |= EdgeFlag.destinationOnly;

  // oneway: vehicles only, unless the tag names pedestrians
  let forward = access;
  let backward = access;
  const oneway = tags.oneway;
  const onewayVehicles =
    oneway === 'yes' || oneway === '1' || oneway === 'true'
      ? 1
      : oneway === '-1' || oneway === 'reverse'
        ? -1
        : oneway === 'no'
          ? 0
          : roundabout || highway === 'motorway' || (highway === 'motorway_link' && oneway === undefined)
            ? 1
            : 0;
  if (oneway === 'reversible' || oneway === 'alternating') {
    forward &= ~VEHICLES;
    backward &= ~VEHICLES;
  } else if (onewayVehicles !== 0) {
    let exempt = foot | wheelchair;
    if (tags['oneway:bicycle'] === 'no' || /^opposite/.test(tags.cycleway ?? '') || /^opposite/.test(tags['cycleway:left'] ?? '') || /^opposite/.test(tags['cycleway:right'] ?? '')) exempt |= bicycle;
    if (tags['oneway:bus'] === 'no' || tags['oneway:psv'] === 'no' || /^opposite/.test(tags.busway ?? '')) exempt |= bus;
    if (tags['oneway:psv'] === 'no' || tags['oneway:taxi'] === 'no') exempt |= taxi;
    if (onewayVehicles === 1) backward &= exempt;
    else forward &= exempt;
  }
  if (tags['oneway:bicycle'] === 'yes') backward &= ~bicycle;
  if (tags['oneway:foot'] === 'yes') backward &= ~(foot | wheelchair);

  const maxspeed = parseSpeed(tags.maxspeed ?? tags['maxspeed:forward']);
  const classSpeed = isLink ? (LINK_SPEEDS[roadClass] ?? defaults.speed) : defaults.speed;
  // a ferry's `duration` tag overrides this once the builder knows the crossing's length
  const speed = isFerry ? defaults.speed : maxspeed > 0 ? maxspeed : classSpeed;

  const lanes = parseCount(tags.lanes);
  const lanesForward = parseCount(tags['lanes:forward']) || (onewayVehicles !== 0 ? lanes : Math.ceil(lanes / 2));
  const lanesBackward = parseCount(tags['lanes:backward']) || (onewayVehicles !== 0 ? 0 : Math.max(0, lanes - lanesForward));
  const turnForward = onewayVehicles === 1 ? (tags['turn:lanes'] ?? tags['turn:lanes:forward']) : tags['turn:lanes:forward'];
  const turnBackward = onewayVehicles === -1 ? (tags['turn:lanes'] ?? tags['turn:lanes:backward']) : tags['turn:lanes:backward'];

  const maxWeight = parseWeight(tags.maxweight ?? tags['maxweight:hgv']);
  const maxHeight = parseLength(tags.maxheight ?? tags['maxheight:physical']);
  const maxWidth = parseLength(tags.maxwidth ?? tags['maxwidth:physical']);
  const maxLength = parseLength(tags.maxlength);

  return {
    class: roadClass,
    classIndex: ROAD_CLASSES.indexOf(roadClass),
    forward,
    backward,
    speed: Math.max(1, Math.min(255, Math.round(speed))),
    maxspeed: Math.min(255, Math.round(maxspeed)),
    flags,
    lanesForward: Math.min(255, lanesForward),
    lanesBackward: Math.min(255, lanesBackward),
    ...(turnForward ? { turnLanesForward: turnForward } : {}),
    ...(turnBackward ? { turnLanesBackward: turnBackward } : {}),
    maxWeight,
    maxHeight,
    maxWidth,
    maxLength,
    truckTagged: tags.hgv !== undefined || maxWeight > 0 || maxHeight > 0 || maxWidth > 0 || maxLength > 0,
  };
}

function isYes(value: string | undefined): boolean {
  return value === 'yes' || value === 'true' || value === '1';
}

function ferryAccess(tags: OsmTags): number {
  let access = foot | bicycle | wheelchair;
  if (isYes(tags.motorcar) || isYes(tags.motor_vehicle)) access |= car | taxi | bus | motorScooter;
  if (isYes(tags.hgv)) access |= truck;
  return access;
}


/** Whether a value of an access tag allows passage (destination-only counts as allowed). */
function permits(value: string): boolean | undefined {
  if (value === 'yes' || value === 'designated' || value === 'permissive' || value === 'official' || value === 'discouraged') return true;
  // private included: reachable as a destination; the destinationOnly flag keeps it out of through routes
  if (DESTINATION.has(value)) return true;
  if (DENIED.has(value)) return false;
  return undefined;
}

/** Applies the OSM access hierarchy (access → vehicle → motor_vehicle → specific mode) to the class default. */
export function applyAccessTags(tags: OsmTags, defaults: number): number {
  const rules: [string, number][] = [
    ['access', ALL],
    ['vehicle', VEHICLES],
    ['motor_vehicle', MOTOR_MODES],
    ['motorcar', car | taxi],
    ['motorcycle', motorScooter],
    ['moped', motorScooter],
    ['hgv', truck],
    ['goods', truck],
    ['psv', bus | taxi],
    ['bus', bus],
    ['taxi', taxi],
    ['bicycle', bicycle],
    ['foot', foot | wheelchair],
    ['wheelchair', wheelchair],
  ];
  let access = defaults;
  for (const [key, modes] of rules) {
    const value = tags[key];
    if (value === undefined) continue;
    const verdict = permits(value);
    if (verdict === true) {
      // a general "yes" does not open a mode the class never carries (access=yes on a footway is not for cars)
      access |= key === 'access' || key === 'vehicle' || key === 'motor_vehicle' ? modes & defaults : modes;
    } else if (verdict === false) access &= ~modes;
  }
  if (tags.wheelchair === 'no') access &= ~wheelchair;
  if (!(access & foot) && tags.wheelchair !== 'yes') access &= ~wheelchair;
  return access;
}

function motorDestinationOnly(tags: OsmTags): boolean {
  for (const key of ['access', 'vehicle', 'motor_vehicle', 'motorcar']) {
    const value = tags[key];
    if (value !== undefined && DESTINATION.has(value)) return true;
  }
  return false;
}

function isUnpaved(tags: OsmTags, roadClass: RoadClass): boolean {
  const surface = tags.surface?.split(':')[0];
  if (surface) return UNPAVED.has(surface);
  if (tags.tracktype) return tags.tracktype !== 'grade1';
  return roadClass === 'track';
}

function parseCount(value: string | undefined): number {
  if (!value) return 0;
  const parsed = Number.parseInt(value, 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 0;
}

/** maxspeed: "50", "30 mph", "50 km/h"; implicit zone values ("EG:urban", "none", "walk") give 0. */
export function parseSpeed(value: string | undefined): number {
  if (!value) return 0;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh|kph|knots)?\s*$/i.exec(value.split(';')[0]!);
  if (!match) return value === 'walk' ? 5 : 0;
  const number = Number(match[1]);
  const unit = match[2]?.toLowerCase();
  return unit === 'mph' ? number * 1.609344 : unit === 'knots' ? number * 1.852 : number;
}

/** maxweight: tonnes; "7.5", "7.5 t", "5000 kg", "10 st" (short tons), "20000 lbs". */
export function parseWeight(value: string | undefined): number {
  if (!value) return 0;
  const match = /^\s*(\d+(?:[.,]\d+)?)\s*(t|kg|st|lbs?)?\s*$/i.exec(value);
  if (!match) return 0;
  const number = Number(match[1]!.replace(',', '.'));
  const unit = match[2]?.toLowerCase();
  if (unit === 'kg') return number / 1000;
  if (unit === 'st') return number * 0.90718474;
  if (unit === 'lb' || unit === 'lbs') return number * 0.00045359237;
  return number;
}

/** maxheight/maxwidth/maxlength: metres; "4", "4.2 m", "13'6\"", "3,5". */
export function parseLength(value: string | undefined): number {
  if (!value) return 0;
  const feet = /^\s*(\d+)\s*'\s*(?:(\d+(?:\.\d+)?)\s*")?\s*$/.exec(value);
  if (feet) return Number(feet[1]) * 0.3048 + Number(feet[2] ?? 0) * 0.0254;
  const metres = /^\s*(\d+(?:[.,]\d+)?)\s*(m|ft)?\s*$/i.exec(value);
  if (!metres) return 0;
  const number = Number(metres[1]!.replace(',', '.'));
  return metres[2]?.toLowerCase() === 'ft' ? number * 0.3048 : number;
}

/** Ferry crossing time from `duration` ("HH:MM", "HH:MM:SS" or minutes), in seconds; 0 = untagged. */
export function parseDurationSeconds(value: string | undefined): number {
  if (!value) return 0;
  const parts = value.trim().split(':').map(Number);
  if (parts.some((part) => !Number.isFinite(part))) return 0;
  if (parts.length === 1) return parts[0]! * 60;
  if (parts.length === 2) return parts[0]! * 3600 + parts[1]! * 60;
  return parts[0]! * 3600 + parts[1]! * 60 + parts[2]!;
}

/** Modes a node stops: barriers and access tags on the node itself. */
export function nodeBlockedModes(tags: OsmTags): number {
  const barrier = tags.barrier;
  let open = ALL;
  if (barrier === 'bollard' || barrier === 'block' || barrier === 'jersey_barrier' || barrier === 'chain' || barrier === 'cycle_barrier' || barrier === 'motorcycle_barrier') {
    open = foot | wheelchair | bicycle;
    if (barrier === 'motorcycle_barrier') open = foot | wheelchair;
  } else if (barrier === 'kissing_gate' || barrier === 'stile' || barrier === 'turnstile' || barrier === 'full-height_turnstile') {
    open = foot;
  } else if (barrier === 'wall' || barrier === 'fence' || barrier === 'hedge') {
    open = 0;
  }
  const hasAccessTag = ['access', 'vehicle', 'motor_vehicle', 'motorcar', 'foot', 'bicycle', 'hgv', 'bus', 'psv'].some((key) => tags[key] !== undefined);
  if (hasAccessTag) open = applyAccessTags(tags, open);
  return ALL & ~open & 0xff;
}
