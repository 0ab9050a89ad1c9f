/**
 * Bodies of the assistant and the AI helpers (spec part 3 §4.7; the /ai/constraints and /ai/assistant
 * bodies are designed here, docs/assistant.md).
 */
import { z } from 'zod';

export const MAX_MESSAGE_CHARS = 8_000;
export const MAX_CONTEXT_CHARS = 32_000;
export const MAX_HISTORY_ITEMS = 12;
export const MAX_HISTORY_CONTENT_CHARS = 2_000;
/** Body limit of the assistant routes: the longest valid body (message, context, 12 history items, all in 4-byte characters) fits. */
export const ASSISTANT_BODY_LIMIT_BYTES = 4 * (MAX_MESSAGE_CHARS + MAX_CONTEXT_CHARS + MAX_HISTORY_ITEMS * MAX_HISTORY_CONTENT_CHARS) + 16_384;

export const historyItem = z.object({
  role: z.enum(['user', 'assistant'], { error: 'must be user or assistant' }),
  content: z.string().max(MAX_HISTORY_CONTENT_CHARS, `must be at most ${MAX_HISTORY_CONTENT_CHARS} characters`),
});

export const agentRequest = z.object({
  message: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS} characters`),
  context: z.string().max(MAX_CONTEXT_CHARS, `must be at most ${MAX_CONTEXT_CHARS} characters`).optional(),
  userName: z.string().max(200, 'must be at most 200 characters').optional(),
  history: z.array(historyItem).max(MAX_HISTORY_ITEMS, `at most ${MAX_HISTORY_ITEMS} items`).optional(),
});
export type AgentRequest = z.infer<typeof agentRequest>;

export const searchUnderstandingRequest = z.object({
  query: z.string({ error: 'is required' }).max(500, 'must be at most 500 characters'),
});

export const routeLabelsRequest = z.object({
  payload: z.record(z.string(), z.unknown(), { error: 'must be an object (a routing response envelope)' }),
});

export const constraintsRequest = z.object({
  text: z.string({ error: 'is required' }).max(2_000, 'must be at most 2000 characters'),
});
