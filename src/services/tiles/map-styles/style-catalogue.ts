/** The six styles of part 2 §4.7 and what `GET /tiles/styles` says about each. */

export const STYLE_NAMES = ['standard', 'positron', 'dark', 'satellite', '3d', 'terrain'] as const;
export type StyleName = (typeof STYLE_NAMES)[number];

/** Names accepted by `GET /tiles/style?style=`: the six, plus `road`, an alias of standard. */
export const STYLE_ALIASES: ReadonlyMap<string, StyleName> = new Map<string, StyleName>([
  ...STYLE_NAMES.map((name) => [name, name] as const),
  ['road', 'standard'],
]);

export interface StyleEntry {
  style: StyleName;
  label: string;
  category: 'base' | 'imagery';
  description: string;
}

export const STYLE_CATALOGUE: readonly StyleEntry[] = [
  { style: 'standard', label: 'Standard', category: 'base', description: 'Streets, water, parks, land use and buildings in full colour, labels in Arabic or English' },
  { style: 'positron', label: 'Positron', category: 'base', description: 'Light and muted, for drawing data on top' },
  { style: 'dark', label: 'Dark', category: 'base', description: 'Dark background for night mode and bright overlays' },
  { style: 'satellite', label: 'Satellite', category: 'imagery', description: 'Imagery with roads, boundaries and labels drawn over it (hybrid)' },
  { style: '3d', label: '3D', category: 'base', description: 'Standard colours, extruded buildings and a pitched camera; elevation with terrain=1 where configured' },
  { style: 'terrain', label: 'Terrain', category: 'base', description: 'Natural Earth relief raster (to zoom 6) under the full vector map' },
];

/** The service credit every style carries (part 2 §4.7 rule 6), with the data licence. */
export const SERVICE_ATTRIBUTION = '© svc · © OpenStreetMap contributors, ODbL';
/** Public-domain credit of the Natural Earth raster. */
export const NATURAL_EARTH_ATTRIBUTION = 'Made with Natural Earth (public domain)';

export const REGULAR_FONT_STACK = ['Noto Sans Regular', 'Noto Sans Arabic Regular'] as const;
export const BOLD_FONT_STACK = ['Noto Sans Bold', 'Noto Sans Arabic Bold'] as const;
