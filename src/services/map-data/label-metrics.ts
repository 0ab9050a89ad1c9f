/**
 * Label size on screen without a font at hand: per-script advance widths measured once from the
 * style's fonts (Noto Sans 12 px for Latin, Noto Sans Arabic 13 px for Arabic; see
 * docs/map-data.md) and wrapped at the style's `text-max-width` of 10 em, as MapLibre wraps.
 * Arabic letters join, so an Arabic word is narrower per letter than a Latin one, while its line
 * needs more height for the script's ascenders and descenders.
 */
export type LabelLocale = 'en' | 'ar';

interface Metrics {
  fontPx: number;
  lineHeightPx: number;
  /** Advance in em of: Arabic letters, Latin capitals, other Latin letters and digits, spaces, anything else. */
  arabic: number;
  upper: number;
  lower: number;
  space: number;
  other: number;
}

const METRICS: Readonly<Record<LabelLocale, Metrics>> = {
  en: { fontPx: 12, lineHeightPx: 16, arabic: 0.46, upper: 0.66, lower: 0.54, space: 0.26, other: 0.6 },
  ar: { fontPx: 13, lineHeightPx: 20, arabic: 0.46, upper: 0.66, lower: 0.54, space: 0.26, other: 0.6 },
};
const MAX_WIDTH_EM = 10;
/** Labels longer than this many lines are cut by the renderer. */
const MAX_LINES = 3;

function advanceEm(code: number, metrics: Metrics): number {
  // Arabic marks (harakat) take no advance
  if ((code >= 0x064b && code <= 0x065f) || code === 0x0670) return 0;
  if ((code >= 0x0600 && code <= 0x06ff) || (code >= 0x0750 && code <= 0x077f) || (code >= 0xfb50 && code <= 0xfeff)) return metrics.arabic;
  if (code === 0x20) return metrics.space;
  if (code >= 0x41 && code <= 0x5a) return metrics.upper;
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return metrics.lower;
  return metrics.other;
}

/** Width and height in CSS pixels of a label, wrapped as the style wraps it. */
export function estimateLabel(text: string, locale: LabelLocale): { width: number; height: number } {
  if (!text) return { width: 0, height: 0 };
  const metrics = METRICS[locale];
  let em = 0;
  for (let index = 0; index < text.length; index++) em += advanceEm(text.charCodeAt(index), metrics);
  const lines = Math.min(MAX_LINES, Math.max(1, Math.ceil(em / MAX_WIDTH_EM)));
  const widthEm = Math.min(em, MAX_WIDTH_EM);
  return { width: Math.ceil(widthEm * metrics.fontPx), height: lines * metrics.lineHeightPx };
}
