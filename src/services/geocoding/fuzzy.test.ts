import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, maxEdits, TypoDictionary } from './fuzzy.js';

describe('edit distance (optimal string alignment)', () => {
  it('counts substitutions, insertions, deletions and swaps of neighbours', () => {
    expect(editDistance('amman', 'amman', 2)).toBe(0);
    expect(editDistance('amman', 'aman', 2)).toBe(1);
    expect(editDistance('irbid', 'irbdi', 2)).toBe(1);
    expect(editDistance('zarqa', 'zarka', 2)).toBe(1);
    expect(editDistance('نحاس', 'ناس', 2)).toBe(1);
  });

  it('stops at the limit', () => {
    expect(editDistance('madaba', 'karak', 1)).toBe(2);
  });
});

describe('typo budget', () => {
  it('allows 1 edit for Latin words of 4–7 letters, 2 from 8, none below 4', () => {
    expect([maxEdits('abc'), maxEdits('amman'), maxEdits('shmeisani')]).toEqual([0, 1, 2]);
  });

  it('allows Arabic words one edit from 3 letters (no written short vowels)', () => {
    expect([maxEdits('حي'), maxEdits('نصر'), maxEdits('الشميساني')]).toEqual([0, 1, 2]);
  });
});

describe('typo dictionary', () => {
  const vocabulary = ['shmeisani', 'sweileh', 'abdoun', 'khalda', 'jubeiha', 'tlaa', 'مصطفي', 'نحاس', 'عباس'];
  const dictionary = new TypoDictionary(vocabulary);

  it('finds words one or two edits away and says how far', () => {
    expect(dictionary.lookup('shmesani')).toEqual([{ id: 0, distance: 1 }]);
    expect(dictionary.lookup('shmisany')).toEqual([{ id: 0, distance: 2 }]);
    expect(dictionary.lookup('ناس')).toEqual([{ id: 7, distance: 1 }]);
    expect(dictionary.lookup('zzzzzz')).toEqual([]);
  });

  it('finds every word after any single edit (property)', () => {
    const latin = vocabulary.slice(0, 5);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: latin.length - 1 }), fc.nat(), fc.constantFrom('a', 'e', 'i', 'x'), fc.constantFrom('sub', 'ins', 'del'), (which, at, letter, kind) => {
        const word = latin[which]!;
        const position = at % word.length;
        const typo =
          kind === 'sub' ? word.slice(0, position) + letter + word.slice(position + 1) : kind === 'ins' ? word.slice(0, position) + letter + word.slice(position) : word.slice(0, position) + word.slice(position + 1);
        if (typo === word) return;
        expect(dictionary.lookup(typo).map((hit) => vocabulary[hit.id])).toContain(word);
      }),
    );
  });
});
