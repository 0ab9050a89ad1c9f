/**
 * POST /ai/transcribe (spec part 3 §4.7; docs/assistant.md "Voice"): the `file` part is sniffed by
 * its bytes (WebM/Matroska, Ogg, MP4/M4A; the declared type is not trusted), capped in size, and
 * sent to an OpenAI-compatible `/audio/transcriptions` endpoint (TRANSCRIBE_URL) with a processing
 * time-out. No engine, an empty clip, an engine error or a time-out answer `unavailable: true`.
 */
import { z } from 'zod';
import { readBoundedText } from '../../shared/bounded-body.js';
import { ApiError } from '../../shared/errors.js';

/** Largest clip accepted: a few minutes of compressed speech. */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;
/** Body limit of the route: the clip plus the form's headers and a `language` field. */
export const TRANSCRIBE_BODY_LIMIT_BYTES = MAX_AUDIO_BYTES + 64 * 1024;
const MAX_TRANSCRIPT_RESPONSE_BYTES = 1024 * 1024;

export type AudioContainer = 'webm' | 'ogg' | 'mp4';
const CONTENT_TYPES: Record<AudioContainer, string> = { webm: 'audio/webm', ogg: 'audio/ogg', mp4: 'audio/mp4' };

/** The container of a clip from its first bytes, or undefined. */
export function sniffAudio(data: Buffer): AudioContainer | undefined {
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (data.length >= 4 && data.subarray(0, 4).toString('latin1') === 'OggS') return 'ogg';
  if (data.length >= 12 && data.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  return undefined;
}

/** `language`: a two-letter code, anything else (missing, repeated, malformed) is `auto`; never refused. */
export const transcribeQuery = z.object({
  language: z
    .unknown()
    .optional()
    .transform((value) => (typeof value === 'string' && /^[a-z]{2}$/i.test(value.trim()) ? value.trim().toLowerCase() : 'auto')),
});

export interface TranscriptionSettings {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface Transcript {
  text: string;
  language: string;
  unavailable: boolean;
}

const engineAnswer = z.object({ text: z.string().max(100_000), language: z.string().max(40).optional() });

export class TranscriptionService {
  constructor(private readonly settings: TranscriptionSettings | undefined) {}

  get configured(): boolean {
    return this.settings !== undefined;
  }

  async transcribe(file: { data: Buffer; filename: string } | undefined, language: string, signal?: AbortSignal): Promise<Transcript> {
    if (!file) throw new ApiError('VALIDATION_ERROR', { message: ['file: required (a multipart part named "file" with the audio)'] });
    if (file.data.length > MAX_AUDIO_BYTES) throw new ApiError('VALIDATION_ERROR', { message: [`file: at most ${MAX_AUDIO_BYTES} bytes`] });
    if (file.data.length === 0) return { text: '', language, unavailable: true };
    const container = sniffAudio(file.data);
    if (!container) throw new ApiError('VALIDATION_ERROR', { message: ['file: must be WebM, Ogg or MP4/M4A audio'] });
    if (!this.settings) return { text: '', language, unavailable: true };
    try {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file.data)], { type: CONTENT_TYPES[container] }), `audio.${container === 'mp4' ? 'm4a' : container}`);
      form.append('model', this.settings.model);
      if (language !== 'auto') form.append('language', language);
      form.append('response_format', 'json');
      const timeout = AbortSignal.timeout(this.settings.timeoutMs);
      const response = await fetch(this.settings.url, {
        method: 'POST',
        headers: { accept: 'application/json', ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}) },
        body: form,
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
        redirect: 'error',
      });
      const text = await readBoundedText(response, MAX_TRANSCRIPT_RESPONSE_BYTES);
      if (!response.ok) return { text: '', language, unavailable: true };
      const answer = engineAnswer.safeParse(JSON.parse(text));
      if (!answer.success) return { text: '', language, unavailable: true };
      const spoken = answer.data.text.trim();
      const detected = answer.data.language ? languageCode(answer.data.language) : undefined;
      return { text: spoken, language: language === 'auto' ? (detected ?? 'auto') : language, unavailable: spoken.length === 0 };
    } catch {
      return { text: '', language, unavailable: true };
    }
  }
}

const LANGUAGE_NAMES = new Map([
  ['english', 'en'],
  ['arabic', 'ar'],
  ['french', 'fr'],
  ['turkish', 'tr'],
  ['persian', 'fa'],
]);
/** Whisper answers a language name ("arabic"); the API speaks two-letter codes. */
function languageCode(value: string): string | undefined {
  const lowered = value.trim().toLowerCase();
  if (/^[a-z]{2}$/.test(lowered)) return lowered;
  return LANGUAGE_NAMES.get(lowered);
}
