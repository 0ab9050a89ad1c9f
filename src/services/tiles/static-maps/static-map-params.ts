/**
 * The parameters of `GET /static/map`, shaped after Google Static Maps and Mapbox Static Images:
 * `center=lat,lng` with `zoom` (MapLibre zoom, 512-pixel world), or `bbox=west,south,east,north`
 * fitted with `padding`, or neither (the markers and paths are fitted); `size=WIDTHxHEIGHT`,
 * `scale=1|2`, `markers=[style|]lat,lng[|lat,lng…]` (repeatable), `path=[style|](enc:…|enc6:…|lat,lng|…)`
 * (repeatable). Each parser answers the value or the message a 400 names.
 */
import polyline from '@mapbox/polyline';
import { MARKER_SIZES, type MarkerSize } from '../../../solvers/static-map/overlays.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
const good = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (message: string): Parsed<never> => ({ ok: false, message });

/** Largest width and height, CSS pixels (the PNG is up to 2560 × 2560 at scale 2). */
export const MAX_SIZE_PX = 1280;
export const MAX_ZOOM = 20;
export const MAX_MARKERS = 50;
export const MAX_PATHS = 5;
/** Points over all paths: a long route decoded from a polyline stays well under it. */
export const MAX_PATH_POINTS = 5000;
export const MAX_PATH_WEIGHT_PX = 20;
export const DEFAULT_MARKER_COLOR = '#e53935ff';
export const DEFAULT_PATH_COLOR = '#1a73e8ff';
export const DEFAULT_PATH_WEIGHT_PX = 5;

/** Google Static Maps' colour names. */
const NAMED_COLORS = new Map([
  ['black', '000000'],
  ['brown', '8b4513'],
  ['green', '2e7d32'],
  ['purple', '7b1fa2'],
  ['yellow', 'fdd835'],
  ['blue', '1e88e5'],
  ['gray', '757575'],
  ['orange', 'fb8c00'],
  ['red', 'e53935'],
  ['white', 'ffffff'],
]);

/** Degrees as written by people and by JavaScript (up to 17 significant digits). */
const NUMBER = /^-?\d{1,3}(?:\.\d{1,17})?$/;

export function parseSize(value: string): Parsed<{ width: number; height: number }> {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(value);
  if (!match) return bad('must be WIDTHxHEIGHT in pixels, e.g. 600x400');
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < 1 || height < 1 || width > MAX_SIZE_PX || height > MAX_SIZE_PX) return bad(`width and height must be 1 to ${MAX_SIZE_PX} pixels (got ${width}x${height})`);
  return good({ width, height });
}

/** `lat,lng` in degrees. */
export function parseLatLng(value: string): Parsed<{ lat: number; lng: number }> {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length !== 2 || !parts.every((part) => NUMBER.test(part))) return bad(`"${value.slice(0, 40)}" must be lat,lng in degrees`);
  const [lat, lng] = parts.map(Number) as [number, number];
  if (lat < -85 || lat > 85 || lng < -180 || lng > 180) return bad(`"${value.slice(0, 40)}": lat must be within ±85 and lng within ±180`);
  return good({ lat, lng });
}

export function parseBbox(value: string): Parsed<[number, number, number, number]> {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length !== 4 || !parts.every((part) => NUMBER.test(part))) return bad('must be west,south,east,north in degrees');
  const [west, south, east, north] = parts.map(Number) as [number, number, number, number];
  if (west < -180 || east > 180 || south < -85 || north > 85) return bad('must lie within ±180 longitude and ±85 latitude');
  if (west >= east || south >= north) return bad('west must be less than east and south less than north');
  return good([west, south, east, north]);
}

/** `0xRRGGBB`, `0xRRGGBBAA`, `RRGGBB`, `#RRGGBB` (any with alpha) or a name → `#rrggbbaa`. */
export function parseColor(value: string): Parsed<string> {
  const lower = value.trim().toLowerCase();
  const named = NAMED_COLORS.get(lower);
  if (named) return good(`#${named}ff`);
  const match = /^(?:0x|#)?([0-9a-f]{6})([0-9a-f]{2})?$/.exec(lower);
  if (!match) return bad(`colour "${value.slice(0, 20)}" must be 0xRRGGBB, 0xRRGGBBAA, RRGGBB or one of ${[...NAMED_COLORS.keys()].join(', ')}`);
  return good(`#${match[1]}${match[2] ?? 'ff'}`);
}

export interface MarkerGroup {
  color: string;
  label: string | undefined;
  size: MarkerSize;
  points: { lat: number; lng: number }[];
}

/** `color:red|label:A|size:small|30.06,31.33|30.07,31.34`: style tokens, then one or more points. */
export function parseMarkers(value: string): Parsed<MarkerGroup> {
  const group: MarkerGroup = { color: DEFAULT_MARKER_COLOR, label: undefined, size: 'medium', points: [] };
  for (const token of value.split('|')) {
    const [name, ...rest] = token.split(':');
    const option = rest.join(':');
    if (rest.length > 0 && name === 'color') {
      const color = parseColor(option);
      if (!color.ok) return color;
      group.color = color.value;
    } else if (rest.length > 0 && name === 'label') {
      const characters = [...option];
      if (characters.length < 1 || characters.length > 2 || /[\p{C}\s]/u.test(option)) return bad('label must be 1 or 2 visible characters');
      group.label = option;
    } else if (rest.length > 0 && name === 'size') {
      if (!(MARKER_SIZES as readonly string[]).includes(option)) return bad(`size must be one of ${MARKER_SIZES.join(', ')}`);
      group.size = option as MarkerSize;
    } else if (rest.length > 0) {
      return bad(`unknown marker option "${name!.slice(0, 20)}": color, label, size`);
    } else {
      const point = parseLatLng(token);
      if (!point.ok) return point;
      group.points.push(point.value);
    }
  }
  if (group.points.length === 0) return bad('give at least one lat,lng after the style options');
  return good(group);
}

export interface PathSpec {
  color: string;
  weightPx: number;
  /** [lng, lat] positions. */
  coordinates: [number, number][];
}

/**
 * `color:0x0000ff|weight:5|enc:<polyline>` (precision 5, as Google; `enc6:` for precision 6, as this
 * API's routes), or points `lat,lng|lat,lng…`. The polyline comes last: it may itself hold `|`.
 */
export function parsePath(value: string): Parsed<PathSpec> {
  const spec: PathSpec = { color: DEFAULT_PATH_COLOR, weightPx: DEFAULT_PATH_WEIGHT_PX, coordinates: [] };
  let rest = value;
  while (rest.length > 0) {
    const encoded = /^enc(6?):/.exec(rest);
    if (encoded) {
      const decoded = decodePolyline(rest.slice(encoded[0].length), encoded[1] ? 6 : 5);
      if (!decoded.ok) return decoded;
      spec.coordinates.push(...decoded.value);
      break;
    }
    const end = rest.indexOf('|');
    const token = end < 0 ? rest : rest.slice(0, end);
    rest = end < 0 ? '' : rest.slice(end + 1);
    const [name, ...options] = token.split(':');
    const option = options.join(':');
    if (options.length > 0 && name === 'color') {
      const color = parseColor(option);
      if (!color.ok) return color;
      spec.color = color.value;
    } else if (options.length > 0 && name === 'weight') {
      const weight = Number(option);
      if (!/^\d{1,2}(?:\.\d+)?$/.test(option) || weight < 1 || weight > MAX_PATH_WEIGHT_PX) return bad(`weight must be 1 to ${MAX_PATH_WEIGHT_PX} pixels`);
      spec.weightPx = weight;
    } else if (options.length > 0) {
      return bad(`unknown path option "${name!.slice(0, 20)}": color, weight, enc, enc6`);
    } else {
      const point = parseLatLng(token);
      if (!point.ok) return point;
      spec.coordinates.push([point.value.lng, point.value.lat]);
    }
  }
  if (spec.coordinates.length < 2) return bad('a path needs at least 2 points (lat,lng|lat,lng or enc:<polyline>)');
  return good(spec);
}

/**
 * An encoded polyline (Google's algorithm) as [lng, lat] positions. @mapbox/polyline decodes any
 * string without complaint, so the form is checked first: characters 63–126, every value ended (a
 * character below 95 ends one), an even number of values, and positions on the globe.
 */
export function decodePolyline(encoded: string, precision: 5 | 6): Parsed<[number, number][]> {
  if (encoded.length === 0) return bad('the encoded polyline is empty');
  let values = 0;
  for (let index = 0; index < encoded.length; index++) {
    const code = encoded.charCodeAt(index);
    if (code < 63 || code > 126) return bad(`bad polyline: character ${JSON.stringify(encoded[index])} at ${index} is not of an encoded polyline (URL-encode the path parameter)`);
    if (code < 95) values++;
  }
  if (encoded.charCodeAt(encoded.length - 1) >= 95 || values % 2 !== 0) return bad('bad polyline: it ends inside a value (truncated?)');
  const positions: [number, number][] = [];
  for (const [lat, lng] of polyline.decode(encoded, precision)) {
    if (!(Math.abs(lat!) <= 85 && Math.abs(lng!) <= 180)) return bad(`bad polyline: it leaves the map (${lat},${lng}); is the precision (enc: 5, enc6: 6) right?`);
    positions.push([lng!, lat!]);
  }
  return good(positions);
}
