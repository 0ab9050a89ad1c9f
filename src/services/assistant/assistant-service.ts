/**
 * POST /ai/agent and /ai/assistant (spec part 3 §2.8, §4.7; docs/assistant.md): the message is read
 * by the configured model when there is one (its proposal validated, within LLM_TIMEOUT_MS), else
 * or on any failure by the deterministic parser; the action's facts are then grounded (place
 * search, traffic model) within what is left of AI_TIME_LIMIT_MS, and the turn is logged for at most
 * ASSISTANT_RETENTION_DAYS. The answer always says `model: "svc-ai"`.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/principal.js';
import type { Logger } from '../../shared/logger.js';
import type { AssistantTurnRepository } from '../../store/pg/assistant-turns.js';
import type { AgentRequest } from './assistant-request.js';
import { areaOf, searchPlaces, trafficFacts, trafficReply, type PlaceSearch, type TrafficFacts, type TrafficSource } from './grounding.js';
import type { Intent } from './intent.js';
import { analyseMessage, CURRENT_LOCATION, parseIntent } from './intent-parser.js';
import type { ModelClient } from './model-client.js';
import { actionReply, busyReply, firstNameOf, type GroundedPlace } from './replies.js';

export const PURGE_EVERY_MS = 60 * 60 * 1000;
/** Time kept back from the model for grounding and the reply, out of the overall limit. */
const GROUNDING_RESERVE_MS = 1_000;
/** Places a reply lists for a search, and for the destination of other actions. */
const SEARCH_PLACES = 5;
const TARGET_PLACES = 3;
/** Destinations the client resolves itself (the user's saved home and work): no place search. */
const OWN_PLACES = /^(home|work|office|my home|the office|البيت|بيتي|الشغل|المكتب|الدوام|beit|bait|shoghol|shoghl)$/i;

export interface AssistantServiceDeps {
  search?: PlaceSearch;
  traffic?: TrafficSource;
  turns?: Pick<AssistantTurnRepository, 'add' | 'purgeBefore'>;
  model?: ModelClient;
  logger: Logger;
  now?: () => number;
  modelTimeoutMs: number;
  timeLimitMs: number;
  retentionDays: number;
}

export interface AssistantAnswer {
  reply: string;
  action: Intent['action'];
  model: 'svc-ai';
  unavailable: boolean;
  /** Who read the message: the configured model, or the deterministic parser. */
  source: 'model' | 'parser';
  query?: string;
  target?: string;
  value?: string;
  timeBudgetMin?: number;
  interests?: string[];
  incidentType?: string;
  places?: GroundedPlace[];
  traffic?: TrafficFacts;
}

/** Resolves to the promise's value, or to `undefined` once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  if (ms <= 0) return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export class AssistantService {
  private readonly now: () => number;
  private purgeTimer?: NodeJS.Timeout;

  constructor(private readonly deps: AssistantServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  get modelConfigured(): boolean {
    return this.deps.model !== undefined;
  }

  async respond(principal: Principal | undefined, endpoint: 'agent' | 'assistant', body: AgentRequest): Promise<AssistantAnswer> {
    const deadline = performance.now() + this.deps.timeLimitMs;
    const remaining = () => deadline - performance.now();
    const { language } = analyseMessage(body.message);
    const name = firstNameOf(body.userName);
    const history = body.history ?? [];

    let intent = parseIntent(body.message);
    // A follow-up ("and tomorrow?") is read together with the user's previous message.
    if (intent.action === 'answer' && intent.topic === 'unknown') {
      const previous = [...history].reverse().find((item) => item.role === 'user');
      if (previous) {
        const combined = parseIntent(`${previous.content.slice(0, 500)} ${body.message}`);
        if (combined.action !== 'answer' || (combined.topic !== 'unknown' && combined.topic !== 'off_topic')) intent = combined;
      }
    }
    let source: AssistantAnswer['source'] = 'parser';
    // Off-topic and injection attempts never reach the model.
    if (this.deps.model && intent.topic !== 'off_topic') {
      const budget = Math.min(this.deps.modelTimeoutMs, remaining() - GROUNDING_RESERVE_MS);
      if (budget > 0) {
        const proposal = await this.deps.model.propose(body.message, history, body.context, AbortSignal.timeout(budget));
        if (proposal) {
          source = 'model';
          // the model picks the action; what an answer is about (and so its grounding) stays the parser's reading
          intent = proposal.action === 'answer' ? (intent.action === 'answer' ? intent : { action: 'answer', topic: 'help' }) : proposal;
        }
      }
    }

    const answer: AssistantAnswer = { reply: '', action: intent.action, model: 'svc-ai', unavailable: false, source };
    for (const field of ['query', 'target', 'value', 'timeBudgetMin', 'interests', 'incidentType'] as const) {
      if (intent[field] !== undefined) (answer as unknown as Record<string, unknown>)[field] = intent[field];
    }
    const area = areaOf(body.message, body.context);
    try {
      if (['search', 'directions', 'navigate', 'pin', 'locate'].includes(intent.action) && this.deps.search && intent.query && intent.query !== CURRENT_LOCATION && !OWN_PLACES.test(intent.query)) {
        const places = await within(searchPlaces(this.deps.search, intent.query, language, area, intent.action === 'search' ? SEARCH_PLACES : TARGET_PLACES), remaining());
        if (places === undefined) throw new Error('place search timed out');
        answer.places = places;
        answer.reply = actionReply(intent, language, name, places);
      } else if (intent.action === 'answer' && ['traffic_now', 'traffic_typical', 'best_departure'].includes(intent.topic ?? '') && this.deps.traffic) {
        const facts = await within(trafficFacts(this.deps.traffic, intent, area, this.now()), remaining());
        if (facts === undefined) throw new Error('traffic model timed out');
        answer.traffic = facts;
        const reply = trafficReply(facts, language, area.name?.ar ?? null);
        answer.reply = name ? `${name}${language === 'ar' ? '، ' : ', '}${reply.charAt(0).toLowerCase()}${reply.slice(1)}` : reply;
      } else {
        answer.reply = actionReply(intent, language, name);
      }
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message }, 'assistant: grounding failed');
      delete answer.places;
      delete answer.traffic;
      answer.unavailable = true;
      answer.reply = busyReply(language, name);
    }
    await this.record(principal, endpoint, body, answer);
    return answer;
  }

  private async record(principal: Principal | undefined, endpoint: 'agent' | 'assistant', body: AgentRequest, answer: AssistantAnswer): Promise<void> {
    if (!this.deps.turns || !principal) return;
    try {
      await this.deps.turns.add({
        id: randomUUID(),
        userId: principal.kind === 'user' ? principal.userId : (principal.ownerId ?? null),
        keyId: principal.kind === 'key' ? principal.keyId : null,
        endpoint,
        message: body.message,
        history: body.history ?? [],
        reply: answer.reply,
        action: answer.action,
        source: answer.source,
        createdAtMs: this.now(),
      });
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message }, 'assistant: the turn could not be logged');
    }
  }

  /** Deletes turns older than the retention; returns how many. */
  async purgeExpired(): Promise<number> {
    if (!this.deps.turns) return 0;
    return this.deps.turns.purgeBefore(this.now() - this.deps.retentionDays * 86_400_000);
  }

  /** Purges now and every hour. */
  startRetention(): void {
    const purge = () => this.purgeExpired().catch((error: unknown) => this.deps.logger.warn({ err: (error as Error).message }, 'assistant: purging old turns failed'));
    void purge();
    this.purgeTimer = setInterval(purge, PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  stop(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }
}
