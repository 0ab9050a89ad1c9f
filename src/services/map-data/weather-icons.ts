/**
 * Weather icons (spec part 2 §2.11): 24 × 24 SVGs named `{slug}-{light|dark}.svg`, served at the site
 * root under `/uploads/weather-icons/`. Drawn here as simple line icons (our own drawing, no licence
 * to carry); the light variant is for light interfaces (dark strokes), the dark one for dark
 * interfaces. Day and night live in the slug (`clear`, `clear-night`), not in the theme. The slug
 * list is open: any other slug falls back to `cloud`.
 */
import type { IconTheme } from './category-icons.js';

export const WEATHER_ICON_SLUGS = ['clear', 'clear-night', 'partly', 'cloud', 'rain', 'storm', 'snow', 'fog', 'heat', 'cold', 'wind'] as const;
export type WeatherIconSlug = (typeof WEATHER_ICON_SLUGS)[number];
export const FALLBACK_WEATHER_ICON: WeatherIconSlug = 'cloud';

const SLUGS: ReadonlySet<string> = new Set(WEATHER_ICON_SLUGS);

/** The slug an icon is drawn with: itself when known, else `cloud`. */
export function weatherIconSlug(slug: string): WeatherIconSlug {
  return SLUGS.has(slug) ? (slug as WeatherIconSlug) : FALLBACK_WEATHER_ICON;
}

/** The file name of an icon in a theme, after the fallback. */
export function weatherIconFile(slug: string, theme: IconTheme): string {
  return `${weatherIconSlug(slug)}-${theme}.svg`;
}

interface Palette {
  stroke: string;
  sun: string;
  water: string;
  bolt: string;
  hot: string;
  cold: string;
}

const PALETTES: Readonly<Record<IconTheme, Palette>> = {
  light: { stroke: '#37474f', sun: '#f2a900', water: '#1e88e5', bolt: '#f9a825', hot: '#e53935', cold: '#1e88e5' },
  dark: { stroke: '#eceff1', sun: '#ffd54f', water: '#64b5f6', bolt: '#ffee58', hot: '#ff7961', cold: '#90caf9' },
};

const CLOUD = 'M7 18h10a4 4 0 0 0 .6-7.95A5.5 5.5 0 0 0 7.1 9.6 4.2 4.2 0 0 0 7 18z';
const sunRays = (cx: number, cy: number, inner: number, outer: number) =>
  Array.from({ length: 8 }, (_, index) => {
    const angle = (index * Math.PI) / 4;
    const point = (radius: number) => `${(cx + radius * Math.cos(angle)).toFixed(2)} ${(cy + radius * Math.sin(angle)).toFixed(2)}`;
    return `M${point(inner)}L${point(outer)}`;
  }).join('');

function drawing(slug: WeatherIconSlug, p: Palette): string {
  const line = (d: string, color = p.stroke) => `<path d="${d}" fill="none" stroke="${color}" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>`;
  switch (slug) {
    case 'clear':
      return `<circle cx="12" cy="12" r="4.5" fill="${p.sun}"/>${line(sunRays(12, 12, 6.8, 9.8), p.sun)}`;
    case 'clear-night':
      return `<path d="M15.5 3.5a8.5 8.5 0 1 0 5 15.2A7 7 0 0 1 15.5 3.5z" fill="${p.sun}"/>`;
    case 'partly':
      return `<circle cx="9" cy="8" r="3.5" fill="${p.sun}"/>${line(sunRays(9, 8, 5, 7.3), p.sun)}${line(CLOUD)}`;
    case 'cloud':
      return line(CLOUD);
    case 'rain':
      return `${line('M7 15h10a4 4 0 0 0 .6-7.95A5.5 5.5 0 0 0 7.1 6.6 4.2 4.2 0 0 0 7 15z')}${line('M8 18l-1 3M12 18l-1 3M16 18l-1 3', p.water)}`;
    case 'storm':
      return `${line('M7 15h10a4 4 0 0 0 .6-7.95A5.5 5.5 0 0 0 7.1 6.6 4.2 4.2 0 0 0 7 15z')}<path d="M12.5 13l-3 5h3l-1.5 4 4-6h-3l1.5-3z" fill="${p.bolt}"/>`;
    case 'snow':
      return `${line('M7 14h10a4 4 0 0 0 .6-7.95A5.5 5.5 0 0 0 7.1 5.6 4.2 4.2 0 0 0 7 14z')}${line('M8 18v3M6.7 18.75l2.6 1.5M6.7 20.25l2.6-1.5M16 18v3M14.7 18.75l2.6 1.5M14.7 20.25l2.6-1.5', p.cold)}`;
    case 'fog':
      return line('M4 9h16M6 13h12M4 17h16M8 21h8');
    case 'heat':
      return `${line('M10 4a2 2 0 0 1 4 0v9.3a4 4 0 1 1-4 0z')}<circle cx="12" cy="17" r="2.2" fill="${p.hot}"/>${line('M12 8v7', p.hot)}${line('M17 5h3M17 8h2', p.hot)}`;
    case 'cold':
      return `${line('M10 4a2 2 0 0 1 4 0v9.3a4 4 0 1 1-4 0z')}<circle cx="12" cy="17" r="2.2" fill="${p.cold}"/>${line('M12 13v2', p.cold)}${line('M17 5h3M17 8h2', p.cold)}`;
    case 'wind':
      return line('M3 9h11a3 3 0 1 0-3-3M3 13h15a3 3 0 1 1-3 3M3 17h7');
  }
}

/** The SVG text of an icon (after the fallback) in a theme. */
export function weatherIconSvg(slug: string, theme: IconTheme): string {
  const drawn = weatherIconSlug(slug);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><title>${drawn}</title>${drawing(drawn, PALETTES[theme])}</svg>`;
}
