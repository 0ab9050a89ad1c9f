/**
 * The assistant, AI helpers and voice input (spec part 3 §4.7; docs/assistant.md): the conversation
 * log and its 30-day purge, the optional model and transcription engine, grounding in place search
 * and the traffic model, and the route table.
 */
import type { RouteDefinition } from '../edge/route.js';
import { assistantRoutes } from '../edge/routes/assistant.js';
import { AssistantService } from '../services/assistant/assistant-service.js';
import { ModelClient } from '../services/assistant/model-client.js';
import { TranscriptionService } from '../services/assistant/transcription.js';
import type { SearchService } from '../services/search/search-service.js';
import type { TrafficService } from '../services/traffic/traffic-service.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { AssistantTurnRepository } from '../store/pg/assistant-turns.js';
import type { Backends } from './backends.js';

export interface AssistantWiring {
  routes: RouteDefinition[];
  stop(): void;
}

export function wireAssistant(deps: { config: Config; backends: Backends; search: SearchService; traffic: TrafficService; logger: Logger }): AssistantWiring {
  const { config } = deps;
  const logger = deps.logger.child({ component: 'assistant' });
  const assistant = new AssistantService({
    search: deps.search,
    traffic: deps.traffic,
    turns: new AssistantTurnRepository(deps.backends.sql),
    model: config.LLM_BASE_URL ? new ModelClient({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY }) : undefined,
    logger,
    modelTimeoutMs: config.LLM_TIMEOUT_MS,
    timeLimitMs: config.AI_TIME_LIMIT_MS,
    retentionDays: config.ASSISTANT_RETENTION_DAYS,
  });
  assistant.startRetention();
  const transcription = new TranscriptionService(
    config.TRANSCRIBE_URL ? { url: config.TRANSCRIBE_URL, model: config.TRANSCRIBE_MODEL, apiKey: config.TRANSCRIBE_API_KEY, timeoutMs: config.TRANSCRIBE_TIMEOUT_MS } : undefined,
  );
  return { routes: assistantRoutes(assistant, transcription), stop: () => assistant.stop() };
}
