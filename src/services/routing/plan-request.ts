/**
 * The planner's body (spec part 3 §4.1, POST /routing/plan) and the rule-based
 * reading of `constraintsText`: phrases that ask to avoid tolls, highways,
 * ferries or unpaved roads, in English and Arabic, become avoidances; the rest
 * is reported back unparsed. No language model is involved.
 */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';
import { dateTimeSchema, MAX_EXCLUDE_POLYGONS, MAX_ROUTE_LOCATIONS, polygonRing, unitsSchema } from './engine-request.js';
import { AVOIDABLE, PLAN_COSTINGS, PREFERENCES, type Avoidable } from '../../domain/costing.js';


/** Areas the planner knows by name (city-centres.ts). */
export const NAMED_AREAS = ['city_centre'] as const;

/**
 * A vehicle's limits (tonnes, metres), checked against the roads' maxweight/maxheight/maxwidth/maxlength by
 * the truck costing; `hazmat` is accepted and reported but not enforced (the packs carry no hazmat tags).
 */
export const vehicleLimitsSchema = z
  .object({
    weightT: z.number().positive().max(100).optional(),
    heightM: z.number().positive().max(10).optional(),
    widthM: z.number().positive().max(10).optional(),
    lengthM: z.number().positive().max(50).optional(),
    hazmat: z.boolean().optional(),
  })
  .strict();

const planBodySchema = z.object({
  locations: z
    .array(z.object({ lon: longitude, lat: latitude, name: z.string().max(200).optional() }))
    .min(2, 'at least 2 locations')
    .max(MAX_ROUTE_LOCATIONS, `at most ${MAX_ROUTE_LOCATIONS} locations`),
  costing: z.enum(PLAN_COSTINGS, { error: `must be one of ${PLAN_COSTINGS.join(', ')}` }).default('auto'),
  preference: z.enum(PREFERENCES, { error: `must be one of ${PREFERENCES.join(', ')}` }).default('balanced'),
  avoid: z.array(z.enum(AVOIDABLE, { error: `must be one of ${AVOIDABLE.join(', ')}` })).max(AVOIDABLE.length).default([]),
  optimize: z.boolean().optional(),
  avoidIncidents: z.boolean().default(true),
  avoidReported: z.boolean().default(true),
  disregard: z.array(z.string().min(1).max(200)).max(100).default([]),
  constraintsText: z.string().max(2000).optional(),
  includeLabels: z.boolean().default(true),
  includeLanes: z.boolean().default(false),
  includeAttributes: z.boolean().default(false),
  language: z.string().max(20).default('en-US'),
  /** Not in the spec's table: distance units of the trip (`kilometers` default). */
  units: unitsSchema.optional(),
  /** Not in the spec's table: apply the operators' logistics zones (avoid, penalize, warn; docs/map-data.md). */
  applyLogisticsZones: z.boolean().default(true),
  /** Not in the spec's table: alternatives to the best route (0–3). */
  alternates: z.number().int().min(0).max(3).default(0),
  /** Routing constraints (docs/routing.md, "Routing constraints"): a truck's limits, left turns, areas. */
  vehicle: vehicleLimitsSchema.optional(),
  noLeftTurns: z.boolean().default(false),
  avoidAreas: z.array(z.enum(NAMED_AREAS, { error: `must be one of ${NAMED_AREAS.join(', ')}` })).max(NAMED_AREAS.length).default([]),
  avoidPolygons: z.array(polygonRing).max(MAX_EXCLUDE_POLYGONS).default([]),
  /** Not in the spec's table: as `date_time` on /routing/route, searches on that moment's learned traffic (docs/traffic.md). */
  date_time: dateTimeSchema.optional(),
});

export const planRequestSchema = planBodySchema.refine((body) => body.vehicle === undefined || body.costing === 'truck', {
  message: "vehicle limits are checked by the truck costing: send costing 'truck' with them",
  path: ['vehicle'],
});
export type PlanRequest = z.infer<typeof planRequestSchema>;

const AVOID_PHRASES: Record<Avoidable, RegExp[]> = {
  tolls: [/\b(no|avoid|without|skip)\s+(any\s+)?tolls?\b/i, /\btoll[- ]free\b/i, /(بدون|تجنب|بلا|دون)\s*(ال)?رسوم/],
  highways: [/\b(no|avoid|without|skip)\s+(any\s+)?(highways?|motorways?|freeways?)\b/i, /(بدون|تجنب|بلا|دون)\s*(ال)?طر(ق|يق)\s*(ال)?سريع/],
  ferries: [/\b(no|avoid|without|skip)\s+(any\s+)?ferr(y|ies)\b/i, /(بدون|تجنب|بلا|دون)\s*(ال)?عب(ّ)?ار/],
  unpaved: [/\b(no|avoid|without|skip)\s+(any\s+)?(unpaved|dirt|gravel)(\s+roads?)?\b/i, /(بدون|تجنب|بلا|دون)\s*(ال)?طر(ق|يق)\s*(ال)?(غير\s*(ال)?معب|ترابي)/],
};

export interface ParsedConstraints {
  source: 'rules';
  text: string;
  avoid: Avoidable[];
  /** The parts of the text no rule understood (sentences or clauses), for the caller to handle. */
  unparsed: string[];
}

export function parseConstraintsText(text: string): ParsedConstraints {
  const clauses = text.split(/[.;،؛\n]|,\s*|\band\b|\bو(?=\s)/).map((clause) => clause.trim()).filter(Boolean);
  const avoid = new Set<Avoidable>();
  const unparsed: string[] = [];
  for (const clause of clauses) {
    let understood = false;
    for (const item of AVOIDABLE) {
      if (AVOID_PHRASES[item].some((pattern) => pattern.test(clause))) {
        avoid.add(item);
        understood = true;
      }
    }
    if (!understood) unparsed.push(clause);
  }
  return { source: 'rules', text, avoid: AVOIDABLE.filter((item) => avoid.has(item)), unparsed };
}
