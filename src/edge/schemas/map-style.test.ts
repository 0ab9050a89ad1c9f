import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STYLE_ALIASES } from '../../services/tiles/map-styles/style-catalogue.js';
import { styleField } from './map-style.js';

const satelliteRefused = styleField({ refuse: { satellite: "is not drawn as a static image (its imagery is a third party's, fetched by browsers)" } });

function messageOf(field: z.ZodType, value: unknown): string | undefined {
  const result = field.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('styleField', () => {
  it('reads aliases case-folded and trimmed, standard when missing', () => {
    expect(styleField().parse(undefined)).toBe('standard');
    expect(styleField().parse(' Road ')).toBe(STYLE_ALIASES.get('road'));
    expect(styleField().parse('satellite')).toBe('satellite');
    expect(satelliteRefused.parse('DARK')).toBe('dark');
  });

  it('lists every name in the unknown-style message, minus the refused ones', () => {
    const all = [...STYLE_ALIASES.keys()];
    const drawn = all.filter((name) => STYLE_ALIASES.get(name) !== 'satellite');
    expect(drawn.length).toBeLessThan(all.length);
    expect(messageOf(styleField(), 'watercolor')).toBe(`unknown style "watercolor": must be one of ${all.join(', ')}`);
    expect(messageOf(satelliteRefused, 'watercolor')).toBe(`unknown style "watercolor": must be one of ${drawn.join(', ')}`);
  });

  it('says why a refused style is refused', () => {
    const drawn = [...STYLE_ALIASES.keys()].filter((name) => STYLE_ALIASES.get(name) !== 'satellite');
    expect(messageOf(satelliteRefused, 'Satellite')).toBe(
      `the satellite style is not drawn as a static image (its imagery is a third party's, fetched by browsers): use one of ${drawn.join(', ')}`,
    );
    expect(messageOf(styleField(), ['dark', 'standard'])).toBe('must be given once');
  });
});
