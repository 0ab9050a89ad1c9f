/** /routing/plan between two fixed Nasr City points, and the route's shape as [lat, lng] points. */
import polyline from '@mapbox/polyline';
import { expect } from 'vitest';
import type { ApiClient } from './api-client.js';

export const PLAN_FROM = { lat: 30.0626, lon: 31.3219 };
export const PLAN_TO = { lat: 30.07, lon: 31.34 };

export async function planRoute(api: ApiClient, token: string, extra: Record<string, unknown> = {}) {
  const response = await api.post('/routing/plan', { locations: [PLAN_FROM, PLAN_TO], includeLabels: false, ...extra }, token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(response.body.available).toBe(true);
  const shape: string = response.body.data.trip.legs[0].shape;
  return { body: response.body, shape, points: polyline.decode(shape, 6) as [number, number][] };
}

/** A point of the route about halfway along (by shape index). */
export function middleOf(points: [number, number][]): { lat: number; lng: number } {
  const [lat, lng] = points[Math.floor(points.length / 2)]!;
  return { lat, lng };
}
