/**
 * `style=` of the style document and the static map: a catalogue name or alias (`road` = standard),
 * trimmed and case-folded, standard when missing. A route that cannot serve some styles names them
 * in `refuse` with the reason given back to the caller.
 */
import { z } from 'zod';
import { STYLE_ALIASES, type StyleName } from '../../services/tiles/map-styles/style-catalogue.js';

const single = z.string({ error: 'must be given once' });

export interface StyleFieldOptions {
  /** Styles this route does not serve, each with the rest of the sentence `the <style> style …` that the 400 gives. */
  refuse?: Partial<Record<StyleName, string>>;
}

/** The accepted names (aliases included) after `refuse`, in catalogue order: what the messages list. */
export function acceptedStyleNames(options: StyleFieldOptions = {}): string[] {
  return [...STYLE_ALIASES.keys()].filter((name) => options.refuse?.[STYLE_ALIASES.get(name)!] === undefined);
}

export function styleField(options: StyleFieldOptions = {}) {
  const accepted = acceptedStyleNames(options).join(', ');
  return single
    .trim()
    .toLowerCase()
    .optional()
    .transform((value, context): StyleName => {
      const style = STYLE_ALIASES.get(value ?? 'standard');
      const refusal = style === undefined ? undefined : options.refuse?.[style];
      if (style && refusal === undefined) return style;
      context.addIssue({
        code: 'custom',
        message: refusal === undefined ? `unknown style "${value}": must be one of ${accepted}` : `the ${style} style ${refusal}: use one of ${accepted}`,
      });
      return z.NEVER;
    });
}
