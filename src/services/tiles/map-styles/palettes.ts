/**
 * Colours of the styles. One palette per look; the layer list (vector-layers.ts) is the same for
 * every style and reads only these values, so a look is a palette, not a second copy of 108 layers.
 */

/** The road groups the transportation layer is drawn in, widest first. */
export const ROAD_GROUPS = ['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'minor', 'service'] as const;
export type RoadGroup = (typeof ROAD_GROUPS)[number];

export interface Palette {
  background: string;
  water: string;
  waterOutline: string;
  waterway: string;
  landcover: { wood: string; grass: string; farmland: string; sand: string; wetland: string; ice: string; rock: string };
  /** Opacity of land cover and land use fills (lower over relief and imagery). */
  fillOpacity: number;
  landuse: {
    residential: string;
    commercial: string;
    retail: string;
    industrial: string;
    railway: string;
    cemetery: string;
    hospital: string;
    school: string;
    university: string;
    stadium: string;
    pitch: string;
    quarry: string;
    leisure: string;
    military: string;
  };
  park: string;
  parkOutline: string;
  aerodrome: string;
  apron: string;
  runway: string;
  taxiway: string;
  building: string;
  buildingOutline: string;
  pedestrianArea: string;
  pier: string;
  /** Fill and casing colour per road group. */
  roads: Record<RoadGroup, { fill: string; casing: string }>;
  path: string;
  rail: string;
  railHatch: string;
  transit: string;
  ferry: string;
  tunnelOpacity: number;
  boundaryCountry: string;
  boundaryState: string;
  boundaryOther: string;
  text: string;
  textHalo: string;
  placeText: string;
  roadText: string;
  waterText: string;
  parkText: string;
}

const standardRoads: Palette['roads'] = {
  motorway: { fill: '#f4a462', casing: '#c9733a' },
  trunk: { fill: '#f8c375', casing: '#c98e45' },
  primary: { fill: '#fde293', casing: '#c9a84f' },
  secondary: { fill: '#ffffff', casing: '#b9b2a6' },
  tertiary: { fill: '#ffffff', casing: '#c4beb3' },
  minor: { fill: '#ffffff', casing: '#d3cdc3' },
  service: { fill: '#ffffff', casing: '#dcd7ce' },
};

export const STANDARD_PALETTE: Palette = {
  background: '#f3efe7',
  water: '#a6cbe3',
  waterOutline: '#8db8d6',
  waterway: '#a6cbe3',
  landcover: { wood: '#c5dcb0', grass: '#d8e8c5', farmland: '#eef0d5', sand: '#f2e6c2', wetland: '#d5e6da', ice: '#f4f9fb', rock: '#e2ddd5' },
  fillOpacity: 1,
  landuse: {
    residential: '#ede7dd',
    commercial: '#f2e3de',
    retail: '#f5dfda',
    industrial: '#e8e1e8',
    railway: '#e6e1dc',
    cemetery: '#d2e0c8',
    hospital: '#f6dcdc',
    school: '#f3ead0',
    university: '#f0e6c9',
    stadium: '#d9ecd3',
    pitch: '#cfe8c6',
    quarry: '#dcd6cf',
    leisure: '#e1efd8',
    military: '#eadbd6',
  },
  park: '#cfe6b8',
  parkOutline: '#a9cf8d',
  aerodrome: '#e7e4ee',
  apron: '#dedbe6',
  runway: '#c2bfcc',
  taxiway: '#cfccd8',
  building: '#ddd4c8',
  buildingOutline: '#c9bfb2',
  pedestrianArea: '#f6f3ee',
  pier: '#f0ece5',
  roads: standardRoads,
  path: '#b59f86',
  rail: '#a8a29a',
  railHatch: '#a8a29a',
  transit: '#9c8fb8',
  ferry: '#6b9fcb',
  tunnelOpacity: 0.5,
  boundaryCountry: '#8d6e9a',
  boundaryState: '#a797b0',
  boundaryOther: '#bcb1c3',
  text: '#3d3a36',
  textHalo: '#ffffff',
  placeText: '#2d2a26',
  roadText: '#4d4a46',
  waterText: '#3f6f96',
  parkText: '#3f6e2f',
};

export const POSITRON_PALETTE: Palette = {
  ...STANDARD_PALETTE,
  background: '#f8f8f6',
  water: '#cfdde6',
  waterOutline: '#bccfdc',
  waterway: '#cfdde6',
  landcover: { wood: '#e6ede0', grass: '#ecf0e6', farmland: '#f2f3ea', sand: '#f3f1e9', wetland: '#e8efec', ice: '#fbfcfd', rock: '#eeedea' },
  landuse: {
    residential: '#f2f2f0',
    commercial: '#f1eff0',
    retail: '#f1eeef',
    industrial: '#eeeef0',
    railway: '#efefed',
    cemetery: '#e7ede3',
    hospital: '#f3eded',
    school: '#f3f1ea',
    university: '#f2f0e9',
    stadium: '#e9efe6',
    pitch: '#e6eee3',
    quarry: '#ecebe8',
    leisure: '#ebf0e8',
    military: '#efebea',
  },
  park: '#e3ecdc',
  parkOutline: '#d3e0c9',
  aerodrome: '#efeff2',
  apron: '#e8e8ec',
  runway: '#dcdce1',
  taxiway: '#e3e3e8',
  building: '#e6e4e0',
  buildingOutline: '#d9d6d1',
  pedestrianArea: '#fbfbfa',
  pier: '#f4f4f2',
  roads: {
    motorway: { fill: '#ffffff', casing: '#cfcfcf' },
    trunk: { fill: '#ffffff', casing: '#d3d3d3' },
    primary: { fill: '#ffffff', casing: '#d6d6d6' },
    secondary: { fill: '#ffffff', casing: '#dadada' },
    tertiary: { fill: '#ffffff', casing: '#dedede' },
    minor: { fill: '#ffffff', casing: '#e3e3e3' },
    service: { fill: '#ffffff', casing: '#e8e8e8' },
  },
  path: '#d5d0c8',
  rail: '#d2d2d2',
  railHatch: '#d2d2d2',
  transit: '#cfc8dc',
  ferry: '#a9c2d6',
  boundaryCountry: '#b3a8bb',
  boundaryState: '#c8c0cd',
  boundaryOther: '#d8d2dc',
  text: '#6b6b6b',
  placeText: '#4a4a4a',
  roadText: '#777777',
  waterText: '#7b98ad',
  parkText: '#7e9472',
};

export const DARK_PALETTE: Palette = {
  ...STANDARD_PALETTE,
  background: '#1d2126',
  water: '#0f2a3d',
  waterOutline: '#163a52',
  waterway: '#133450',
  landcover: { wood: '#1f2c24', grass: '#222e26', farmland: '#252a24', sand: '#2c2a24', wetland: '#1f2b2b', ice: '#2a3036', rock: '#2a2a2a' },
  landuse: {
    residential: '#23272c',
    commercial: '#29262b',
    retail: '#2b262a',
    industrial: '#262630',
    railway: '#25262a',
    cemetery: '#202b24',
    hospital: '#2d2428',
    school: '#2a2923',
    university: '#2b2a23',
    stadium: '#212c24',
    pitch: '#213026',
    quarry: '#2a2827',
    leisure: '#212d25',
    military: '#2c2626',
  },
  park: '#1e3025',
  parkOutline: '#2a4534',
  aerodrome: '#26252e',
  apron: '#2c2b35',
  runway: '#3b3a45',
  taxiway: '#34333d',
  building: '#2c3036',
  buildingOutline: '#383d44',
  pedestrianArea: '#25292e',
  pier: '#2a2e33',
  roads: {
    motorway: { fill: '#8a6a3c', casing: '#4f3d22' },
    trunk: { fill: '#7a6440', casing: '#4a3c26' },
    primary: { fill: '#5f5a4c', casing: '#3c3830' },
    secondary: { fill: '#4c5058', casing: '#30333a' },
    tertiary: { fill: '#464a52', casing: '#2e3137' },
    minor: { fill: '#3d4148', casing: '#2b2e33' },
    service: { fill: '#373a40', casing: '#292c30' },
  },
  path: '#4e4a45',
  rail: '#4b4d52',
  railHatch: '#4b4d52',
  transit: '#4c4562',
  ferry: '#2f5878',
  boundaryCountry: '#7a6a88',
  boundaryState: '#5d5468',
  boundaryOther: '#4a4453',
  text: '#c9ccd1',
  textHalo: '#15181c',
  placeText: '#e4e6ea',
  roadText: '#b3b7be',
  waterText: '#6d9bc0',
  parkText: '#7fa98c',
};

/** Shaded relief shows through: the fills above it are translucent. */
export const TERRAIN_PALETTE: Palette = {
  ...STANDARD_PALETTE,
  background: '#eef0e6',
  fillOpacity: 0.55,
  building: '#d6cbbd',
};

/** Over imagery: no fills, roads half transparent, labels light on a dark halo. */
export const SATELLITE_PALETTE: Palette = {
  ...STANDARD_PALETTE,
  background: '#0c1a24',
  roads: {
    motorway: { fill: 'rgba(244,164,98,0.85)', casing: 'rgba(0,0,0,0.45)' },
    trunk: { fill: 'rgba(248,195,117,0.8)', casing: 'rgba(0,0,0,0.4)' },
    primary: { fill: 'rgba(253,226,147,0.75)', casing: 'rgba(0,0,0,0.4)' },
    secondary: { fill: 'rgba(255,255,255,0.7)', casing: 'rgba(0,0,0,0.35)' },
    tertiary: { fill: 'rgba(255,255,255,0.6)', casing: 'rgba(0,0,0,0.3)' },
    minor: { fill: 'rgba(255,255,255,0.5)', casing: 'rgba(0,0,0,0.25)' },
    service: { fill: 'rgba(255,255,255,0.4)', casing: 'rgba(0,0,0,0.2)' },
  },
  path: 'rgba(255,255,255,0.5)',
  runway: 'rgba(255,255,255,0.35)',
  taxiway: 'rgba(255,255,255,0.3)',
  boundaryCountry: '#f0e6ff',
  boundaryState: '#d9ccf0',
  boundaryOther: '#c7b8e0',
  text: '#ffffff',
  textHalo: 'rgba(0,0,0,0.75)',
  placeText: '#ffffff',
  roadText: '#f3f3f3',
  waterText: '#cfe6ff',
  parkText: '#d8f2c8',
};
