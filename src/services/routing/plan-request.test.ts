import { describe, expect, it } from 'vitest';
import { parseConstraintsText } from './plan-request.js';

describe('constraintsText rules', () => {
  it.each([
    ['No tolls please', ['tolls']],
    ['avoid highways and skip ferries', ['highways', 'ferries']],
    ['toll-free; avoid unpaved roads', ['tolls', 'unpaved']],
    ['بدون رسوم، تجنب الطرق السريعة', ['tolls', 'highways']],
    ['تجنب الطرق غير المعبدة', ['unpaved']],
  ])('reads "%s" as avoiding %o', (text, expected) => {
    expect(parseConstraintsText(text).avoid).toEqual(expected);
  });

  it('hands back what no rule understood', () => {
    const parsed = parseConstraintsText('Deliver before 5 pm, no tolls');
    expect(parsed.avoid).toEqual(['tolls']);
    expect(parsed.unparsed).toEqual(['Deliver before 5 pm']);
  });
});
