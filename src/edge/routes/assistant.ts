/**
 * The assistant, AI helpers and voice input (spec part 3 §2.8, §4.7; docs/assistant.md). Access,
 * scopes and the helpers' 30/min per-IP throttle are the /ai/* rows of services/access/endpoint-access.ts.
 */
import { z } from 'zod';
import { defineRoute, type MultipartForm, type RouteDefinition } from '../route.js';
import type { AssistantService } from '../../services/assistant/assistant-service.js';
import { parseConstraints, routeLabelsOf, searchUnderstanding } from '../../services/assistant/ai-helpers.js';
import { agentRequest, ASSISTANT_BODY_LIMIT_BYTES, constraintsRequest, routeLabelsRequest, searchUnderstandingRequest } from '../../services/assistant/assistant-request.js';
import { ASSISTANT_ACTIONS } from '../../services/assistant/intent.js';
import { TRANSCRIBE_BODY_LIMIT_BYTES, transcribeQuery, type TranscriptionService } from '../../services/assistant/transcription.js';

const route = { tags: ['assistant'] };

const placeSchema = z.object({ slug: z.string(), name: z.string(), category: z.string().nullable(), rating: z.number().nullable(), lat: z.number(), lng: z.number() });
const assistantResponse = z.object({
  reply: z.string(),
  action: z.enum(ASSISTANT_ACTIONS),
  model: z.literal('svc-ai'),
  unavailable: z.boolean(),
  source: z.enum(['model', 'parser']).meta({ description: 'Who read the message: the configured model or the deterministic parser' }),
  query: z.string().optional(),
  target: z.string().optional(),
  value: z.string().optional(),
  timeBudgetMin: z.number().optional(),
  interests: z.array(z.string()).optional(),
  incidentType: z.string().optional(),
  places: z.array(placeSchema).optional().meta({ description: 'Present only when the place index was consulted' }),
  traffic: z
    .object({
      basis: z.enum(['live', 'typical', 'expected']),
      at: z.string(),
      area: z.string().nullable(),
      segments: z.number(),
      counts: z.record(z.string(), z.number()),
      recommendedDeparture: z.string().nullable().optional(),
      worstDeparture: z.string().nullable().optional(),
      simulated: z.boolean(),
    })
    .optional()
    .meta({ description: 'Present when the answer was grounded in the traffic model; basis live (now), typical or expected (never live)' }),
});
const helperResponse = z.object({ model: z.literal('svc-ai'), unavailable: z.boolean(), purpose: z.string(), content: z.string() });

const multipartForm = z.custom<MultipartForm>((value) => typeof value === 'object' && value !== null && Array.isArray((value as MultipartForm).files));

export function assistantRoutes(assistant: AssistantService, transcription: TranscriptionService): RouteDefinition[] {
  const conversation = (path: '/ai/agent' | '/ai/assistant', endpoint: 'agent' | 'assistant', summary: string) =>
    defineRoute({
      ...route,
      method: 'POST',
      path,
      summary,
      description:
        'Body `{ message (≤ 8000), context? (≤ 32000), userName?, history? (≤ 12 × { role: user|assistant, content ≤ 2000 }) }`. Answers `{ reply, action, model: "svc-ai", unavailable, source, …action fields, places?, traffic? }`; see docs/assistant.md.',
      body: agentRequest,
      bodyLimitBytes: ASSISTANT_BODY_LIMIT_BYTES,
      response: assistantResponse,
      handler: ({ principal, body }) => assistant.respond(principal, endpoint, body),
    });
  return [
    conversation('/ai/agent', 'agent', 'Assistant: reads a message (English, Arabic, Arabizi) as a map action, grounded in place search and traffic'),
    conversation('/ai/assistant', 'assistant', 'Assistant with conversation history: the agent, reading a follow-up together with the previous user message'),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/ai/search-understanding',
      summary: 'A search query as strict JSON: intent, filters (open now, nearby, rating, price, amenities), category hints, locale, urgency',
      body: searchUnderstandingRequest,
      response: helperResponse,
      readOnly: true,
      handler: ({ body }) => searchUnderstanding(body.query),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/ai/route-labels',
      summary: 'Label and tip of the trip in a routing envelope (deterministic); empty content and null parsed for an unusable trip',
      body: routeLabelsRequest,
      response: helperResponse.extend({ parsed: z.object({ label: z.string(), tip: z.string() }).nullable() }),
      readOnly: true,
      handler: ({ body }) => routeLabelsOf(body.payload),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/ai/constraints',
      summary: 'Free-text route constraints (English, Arabic) → the /routing/plan block (avoid, costing, preference) plus time windows, vehicle limits, no left turns, avoided areas',
      description: 'Body `{ text (≤ 2000) }`. `plan` merges into a POST /routing/plan body as it is; `constraints` holds what the plan cannot take (time windows for the optimizer, vehicle limits, turn and area rules); `unparsed` lists the clauses no rule understood.',
      body: constraintsRequest,
      readOnly: true,
      handler: ({ body }) => parseConstraints(body.text),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/ai/transcribe',
      summary: 'Speech to text: multipart part `file` (WebM, Ogg, MP4/M4A, ≤ 10 MiB); `language` two letters or auto; unavailable when no engine answers',
      query: transcribeQuery,
      bodyKind: 'multipart',
      nonMultipartMessage: 'Expected multipart/form-data',
      bodyLimitBytes: TRANSCRIBE_BODY_LIMIT_BYTES,
      body: multipartForm,
      response: z.object({ text: z.string(), language: z.string(), unavailable: z.boolean() }),
      readOnly: true,
      handler: ({ query, body, signal }) => {
        const file = body.files.find((part) => part.field === 'file');
        return transcription.transcribe(file, query.language, signal);
      },
    }),
  ];
}
