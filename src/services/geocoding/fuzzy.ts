/**
 * Typo tolerance: a symmetric-delete dictionary (SymSpell). Every index token is
 * stored under each string obtained by deleting up to `maxEdits(token)` letters;
 * a query token looks up its own deletions, and candidates are confirmed with the
 * optimal-string-alignment distance (substitution, insertion, deletion, swap of
 * neighbours). Lookups touch a few dozen keys instead of scanning the vocabulary.
 */

/**
 * Edits allowed for a token: Latin none up to 3 letters, 1 up to 7, 2 from 8. Arabic writes
 * no short vowels, so its words are shorter for the same sound: 1 edit from 3 letters, 2 from 7.
 */
export function maxEdits(word: string): number {
  const length = [...word].length;
  if (/[\u0621-\u064A]/.test(word)) return length < 3 ? 0 : length < 7 ? 1 : 2;
  if (length <= 3) return 0;
  return length <= 7 ? 1 : 2;
}

/** Every string reachable from `word` by deleting up to `edits` characters (the word itself included). */
export function deletions(word: string, edits: number): Set<string> {
  const result = new Set<string>([word]);
  let frontier = [word];
  for (let round = 0; round < edits; round++) {
    const next: string[] = [];
    for (const item of frontier) {
      for (let index = 0; index < item.length; index++) {
        const shorter = item.slice(0, index) + item.slice(index + 1);
        if (!result.has(shorter)) {
          result.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return result;
}

/** Optimal string alignment distance, or `limit + 1` as soon as it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = a.length + 1;
  const columns = b.length + 1;
  let previousPrevious = new Array<number>(columns).fill(0);
  let previous = Array.from({ length: columns }, (_, index) => index);
  let current = new Array<number>(columns).fill(0);
  for (let i = 1; i < rows; i++) {
    current[0] = i;
    let rowMinimum = current[0];
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, previousPrevious[j - 2]! + 1);
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    [previousPrevious, previous, current] = [previous, current, previousPrevious];
  }
  return previous[columns - 1]!;
}

/** Tokens within their edit budget of a query word. */
export class TypoDictionary {
  private readonly byDeletion = new Map<string, number[]>();

  constructor(private readonly tokens: readonly string[]) {
    tokens.forEach((token, id) => {
      const edits = maxEdits(token);
      if (edits === 0) return;
      for (const key of deletions(token, edits)) {
        const list = this.byDeletion.get(key);
        if (list) list.push(id);
        else this.byDeletion.set(key, [id]);
      }
    });
  }

  /** Token ids and their distance (1 or 2) from `word`; exact matches are not reported. */
  lookup(word: string): { id: number; distance: number }[] {
    const edits = maxEdits(word);
    if (edits === 0) return [];
    const seen = new Set<number>();
    const found: { id: number; distance: number }[] = [];
    for (const key of deletions(word, edits)) {
      for (const id of this.byDeletion.get(key) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        const token = this.tokens[id]!;
        const budget = Math.min(edits, maxEdits(token));
        const distance = editDistance(word, token, budget);
        if (distance >= 1 && distance <= budget) found.push({ id, distance });
      }
    }
    return found;
  }
}
