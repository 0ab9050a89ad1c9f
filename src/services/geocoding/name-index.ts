/**
 * The text side of the geocoder: every spelling of every entry is tokenized
 * (arabic-text.ts) into a vocabulary with postings, and a query token finds
 * vocabulary tokens five ways, best first: exact, prefix (the word being typed),
 * one or two typos (fuzzy.ts), and the consonant skeleton shared by Arabic and
 * Latin spellings (exact, then prefix). Scoring lives in the geocoder; this
 * module answers "which (entry, spelling) pairs does each query token touch, and
 * how well".
 */
import { analyze, isGeneric, phoneticKeys, type TextToken } from './arabic-text.js';
import { TypoDictionary } from './fuzzy.js';

/** How a query token met an index token; the number is its weight. */
export const MATCH_QUALITY = { exact: 1, prefix: 0.85, typo1: 0.78, phonetic: 0.74, typo2: 0.62, phoneticPrefix: 0.58 } as const;
export type MatchKind = keyof typeof MATCH_QUALITY;

/** At most this many vocabulary tokens per prefix (a one-letter prefix would otherwise touch everything). */
const PREFIX_EXPANSION = 400;
/** Spellings per entry are packed with the entry id: 4 bits. */
export const MAX_SPELLINGS = 16;

export interface Spelling {
  /** token ids in order */
  tokens: Int32Array;
  /** tokens that are not generic words ("street", "لواء"); all tokens when every one is generic */
  significant: number;
}

export interface TokenHit {
  token: number;
  quality: number;
}

function upperBound(sorted: readonly string[], prefix: string): [number, number] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  const first = low;
  high = sorted.length;
  const end = `${prefix}\uffff`;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < end) low = middle + 1;
    else high = middle;
  }
  return [first, low];
}

export class NameIndex {
  private readonly tokenIds = new Map<string, number>();
  readonly tokens: string[] = [];
  private readonly tokenSpellings: string[] = [];
  /** token id → packed (entry << 4 | spelling) */
  private readonly postings: number[][] = [];
  /** entry id → its spellings */
  readonly spellings: Spelling[][] = [];
  private sortedTokens: string[] = [];
  private sortedTokenIds: number[] = [];
  private readonly keyTokens = new Map<string, number[]>();
  private sortedKeys: string[] = [];
  private typos!: TypoDictionary;
  private readonly genericFlags: boolean[] = [];

  /** Adds one entry's spellings (call with increasing entry ids, then `finish`). */
  add(entry: number, texts: readonly string[]): void {
    const list: Spelling[] = [];
    const seen = new Set<string>();
    for (const text of texts) {
      const analyzed = analyze(text);
      if (!analyzed.length) continue;
      const signature = analyzed.map((token) => token.token).join(' ');
      if (seen.has(signature) || list.length >= MAX_SPELLINGS) continue;
      seen.add(signature);
      const ids = Int32Array.from(analyzed, (token) => this.intern(token));
      const significant = analyzed.filter((token) => !isGeneric(token.token)).length || analyzed.length;
      const position = list.length;
      list.push({ tokens: ids, significant });
      for (const id of new Set(ids)) this.postings[id]!.push(entry * MAX_SPELLINGS + position);
    }
    this.spellings[entry] = list;
  }

  /** Token ids of a text that is searched only as context (an entry's admin parents), interning new tokens. */
  contextTokens(text: string): number[] {
    let ids = this.contextCache.get(text);
    if (!ids) {
      ids = analyze(text).map((token) => this.intern(token));
      this.contextCache.set(text, ids);
    }
    return ids;
  }

  private readonly contextCache = new Map<string, number[]>();

  private intern(token: TextToken): number {
    let id = this.tokenIds.get(token.token);
    if (id === undefined) {
      id = this.tokens.length;
      this.tokenIds.set(token.token, id);
      this.tokens.push(token.token);
      this.tokenSpellings.push(token.spelling);
      this.postings.push([]);
      this.genericFlags.push(isGeneric(token.token));
    }
    return id;
  }

  isGenericToken(id: number): boolean {
    return this.genericFlags[id] === true;
  }

  tokenId(token: string): number | undefined {
    return this.tokenIds.get(token);
  }

  finish(): void {
    const order = this.tokens.map((_, id) => id).sort((a, b) => (this.tokens[a]! < this.tokens[b]! ? -1 : 1));
    this.sortedTokenIds = order;
    this.sortedTokens = order.map((id) => this.tokens[id]!);
    this.tokens.forEach((token, id) => {
      for (const key of phoneticKeys(this.tokenSpellings[id] ?? token)) {
        const list = this.keyTokens.get(key);
        if (list) list.push(id);
        else this.keyTokens.set(key, [id]);
      }
    });
    this.sortedKeys = [...this.keyTokens.keys()].sort();
    this.typos = new TypoDictionary(this.tokens);
  }

  postingsOf(token: number): readonly number[] {
    return this.postings[token] ?? [];
  }

  get vocabularySize(): number {
    return this.tokens.length;
  }

  /**
   * Vocabulary tokens a query token may stand for, with the best quality for each.
   * `open`: the token is the last one of the query and may be unfinished (prefix matches).
   */
  match(query: TextToken, open: boolean): TokenHit[] {
    const best = new Map<number, number>();
    const offer = (token: number, kind: MatchKind) => {
      const quality = MATCH_QUALITY[kind];
      if ((best.get(token) ?? 0) < quality) best.set(token, quality);
    };
    const exact = this.tokenIds.get(query.token);
    if (exact !== undefined) offer(exact, 'exact');
    const numeric = /^\d+$/.test(query.token);
    for (const text of query.alternative ? [query.token, query.alternative] : [query.token]) {
      if (!open) continue;
      const [first, end] = upperBound(this.sortedTokens, text);
      for (let index = first; index < Math.min(end, first + PREFIX_EXPANSION); index++) offer(this.sortedTokenIds[index]!, 'prefix');
    }
    const alternative = query.alternative === undefined ? undefined : this.tokenIds.get(query.alternative);
    if (alternative !== undefined) offer(alternative, 'phonetic');
    if (!numeric) {
      for (const { id, distance } of this.typos.lookup(query.token)) offer(id, distance === 1 ? 'typo1' : 'typo2');
      for (const key of phoneticKeys(query.spelling)) {
        // a one-consonant skeleton ("3a2ad" → d, "abu" → b) is common: looked up only for words of 3 to 6 letters
        const letters = [...query.spelling].length;
        if (key.length < 2 && (letters < 3 || letters > 6)) continue;
        for (const id of this.keyTokens.get(key) ?? []) offer(id, 'phonetic');
        if (open && key.length >= 3) {
          const [first, end] = upperBound(this.sortedKeys, key);
          for (let index = first; index < Math.min(end, first + PREFIX_EXPANSION); index++) {
            for (const id of this.keyTokens.get(this.sortedKeys[index]!) ?? []) offer(id, 'phoneticPrefix');
          }
        }
      }
    }
    return [...best].map(([token, quality]) => ({ token, quality }));
  }
}
