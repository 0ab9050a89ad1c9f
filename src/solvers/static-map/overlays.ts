/**
 * What a static map draws over the style: paths (a stroke of the caller's colour and width), marker
 * pins (a teardrop whose tip is on the point, head filled with the caller's colour, a white rim and an
 * optional label), the data attribution in the bottom right corner, and for a request without an API
 * key the same notice the styles' watermark tiles carry.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { canvasFont } from './label-fonts.js';
import { pixelOf, type MapView } from './map-view.js';

export const MARKER_SIZES = ['small', 'medium', 'large'] as const;
export type MarkerSize = (typeof MARKER_SIZES)[number];

/** Pin shapes in CSS pixels: the head's radius and the height from the tip to the head's top. */
export const PIN_SHAPES: Readonly<Record<MarkerSize, { radiusPx: number; heightPx: number }>> = {
  small: { radiusPx: 6, heightPx: 18 },
  medium: { radiusPx: 9, heightPx: 27 },
  large: { radiusPx: 12, heightPx: 36 },
};

export interface StaticMarker {
  lon: number;
  lat: number;
  /** A CSS colour (`#rrggbb` or `#rrggbbaa`). */
  color: string;
  /** Up to 2 characters drawn in the head. */
  label?: string | undefined;
  size: MarkerSize;
}

export interface StaticPath {
  /** [lon, lat] positions. */
  coordinates: [number, number][];
  color: string;
  widthPx: number;
}

const PIN_RIM = '#ffffff';
const ATTRIBUTION_FONT_PX = 10;
const ATTRIBUTION_PADDING_PX = 3;

export function drawPaths(context: SKRSContext2D, view: MapView, paths: readonly StaticPath[]): void {
  context.lineJoin = 'round';
  context.lineCap = 'round';
  context.setLineDash([]);
  for (const path of paths) {
    context.beginPath();
    path.coordinates.forEach(([lon, lat], index) => {
      const [x, y] = pixelOf(view, lon, lat);
      if (index === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    });
    context.strokeStyle = path.color;
    context.lineWidth = path.widthPx;
    context.stroke();
  }
}

/** The centre of a pin's head relative to its tip (the marker's point), CSS pixels. */
export function pinHeadOffset(size: MarkerSize): { dx: number; dy: number } {
  const shape = PIN_SHAPES[size];
  return { dx: 0, dy: -(shape.heightPx - shape.radiusPx) };
}

export function drawMarkers(context: SKRSContext2D, view: MapView, markers: readonly StaticMarker[]): void {
  // southern pins last, so a pin nearer the viewer covers the one behind it
  const ordered = [...markers].sort((a, b) => b.lat - a.lat);
  for (const marker of ordered) {
    const [x, y] = pixelOf(view, marker.lon, marker.lat);
    const { radiusPx: radius } = PIN_SHAPES[marker.size];
    const centerY = y + pinHeadOffset(marker.size).dy;
    // the tangents from the tip meet the head at ±φ from straight down
    const phi = Math.acos(radius / (y - centerY));
    context.beginPath();
    context.moveTo(x, y);
    context.arc(x, centerY, radius, Math.PI / 2 + phi, Math.PI / 2 - phi + 2 * Math.PI);
    context.closePath();
    context.fillStyle = marker.color;
    context.fill();
    context.strokeStyle = PIN_RIM;
    context.lineWidth = 1.5;
    context.stroke();
    if (marker.label) {
      context.font = canvasFont(['Noto Sans Bold', 'Noto Sans Arabic Bold'], radius * 1.25);
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.fillStyle = readableOn(marker.color);
      context.fillText(marker.label, x, centerY);
    }
  }
}

/** Black or white, whichever reads better on a `#rrggbb…` colour. */
function readableOn(color: string): string {
  const red = Number.parseInt(color.slice(1, 3), 16);
  const green = Number.parseInt(color.slice(3, 5), 16);
  const blue = Number.parseInt(color.slice(5, 7), 16);
  return 0.299 * red + 0.587 * green + 0.114 * blue > 160 ? '#000000' : '#ffffff';
}

export function drawAttribution(context: SKRSContext2D, text: string, width: number, height: number): void {
  context.font = canvasFont(undefined, ATTRIBUTION_FONT_PX);
  context.textAlign = 'right';
  context.textBaseline = 'middle';
  const textWidth = context.measureText(text).width;
  const boxHeight = ATTRIBUTION_FONT_PX + 2 * ATTRIBUTION_PADDING_PX;
  context.fillStyle = 'rgba(255, 255, 255, 0.8)';
  context.fillRect(width - textWidth - 2 * ATTRIBUTION_PADDING_PX, height - boxHeight, textWidth + 2 * ATTRIBUTION_PADDING_PX, boxHeight);
  context.fillStyle = '#333333';
  context.fillText(text, width - ATTRIBUTION_PADDING_PX, height - boxHeight / 2);
}

/** A dark translucent band across the middle with the notice, as the styles' watermark tiles. */
export function drawWatermark(context: SKRSContext2D, lines: readonly string[], width: number, height: number): void {
  context.fillStyle = 'rgba(0, 0, 0, 0.18)';
  context.fillRect(0, height / 2 - 26, width, 52);
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillStyle = 'rgba(20, 20, 20, 0.62)';
  lines.forEach((line, index) => {
    context.font = canvasFont(index === 0 ? ['Noto Sans Bold'] : ['Noto Sans Regular'], index === 0 ? 15 : 12);
    context.fillText(line, width / 2, height / 2 + (index === 0 ? -10 : 11));
  });
}
