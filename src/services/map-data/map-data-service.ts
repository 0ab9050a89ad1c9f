import type { MapPack } from '../../datapack/map-pack.js';
import type { PlaceCategory } from '../places/place-taxonomy.js';
import { TileAsset } from '../tiles/tile-asset.js';
import { ICON_SIZE, buildCategoryIcons, pinNameOf, type CategoryIcons, type IconTheme } from './category-icons.js';
import { mapReadiness, packCentre, type MapReadiness, type MapReadinessOptions } from './map-readiness.js';
import { weatherIconSlug, weatherIconSvg } from './weather-icons.js';

const SVG = 'image/svg+xml';
/** `<stem>-light.svg` / `<stem>-dark.svg`: pins and weather icons. */
const THEMED_SVG_FILE = /^([a-z0-9-]{1,64})-(light|dark)\.svg$/;

/** The map data family's door for the edge: the loaded pack and the category icons stay behind it. */
export class MapDataService {
  private iconsOnce: CategoryIcons | undefined;
  private spriteOnce: TileAsset | undefined;
  private readonly svgAssets = new Map<string, TileAsset>();

  constructor(
    private readonly pack: MapPack,
    private readonly options: MapReadinessOptions,
  ) {}

  /** GET /map/readiness; the weather capability asks its provider how it fares (poking it when its last outcome is old). */
  async readiness(): Promise<MapReadiness> {
    const weather = (await this.options.weather?.readiness(packCentre(this.pack))) ?? { data: false, reason: 'no weather provider is configured (WEATHER_URL)' };
    return mapReadiness(this.pack, this.options, weather);
  }

  /** The category styles, sprite and pins, made on first use (they read Maki's 200-odd files). */
  get icons(): CategoryIcons {
    this.iconsOnce ??= buildCategoryIcons();
    return this.iconsOnce;
  }

  /** Path (under the API base) of a category's pin in a theme, versioned: places' `iconLightUrl`/`iconDarkUrl`. */
  pinPath(category: Pick<PlaceCategory, 'group' | 'icon'>, theme: IconTheme): string {
    return `/map/icons/pins/${pinNameOf({ group: category.group, iconName: category.icon })}-${theme}.svg?v=${this.icons.version}`;
  }

  /** GET /map/category-styles; `apiBase` is the absolute API root the hrefs start with. */
  categoryStyles(apiBase: string) {
    const { version, styles } = this.icons;
    const iconSpriteUrl = `${apiBase}/map/icons/sprite.svg?v=${version}`;
    return {
      version,
      iconSpriteUrl,
      count: styles.length,
      categories: styles.map((style) => ({
        slug: style.slug,
        name: style.name,
        group: style.group,
        color: style.color,
        darkColor: style.darkColor,
        pinStyle: style.pinStyle,
        zoomRange: style.zoomRange,
        icon: { name: style.iconName, href: `${apiBase}/map/icons/sprite.svg?v=${version}#svc-icon-${style.iconName}` },
        iconLightUrl: `${apiBase}${this.pinPath({ group: style.group, icon: style.iconName }, 'light')}`,
        iconDarkUrl: `${apiBase}${this.pinPath({ group: style.group, icon: style.iconName }, 'dark')}`,
        aliases: [...style.aliases],
      })),
    };
  }

  /** GET /map/icons/sprite.json */
  iconManifest(apiBase: string) {
    const { version, icons } = this.icons;
    return {
      version,
      count: icons.size,
      icons: [...icons.keys()].map((name) => ({ name, id: `svc-icon-${name}`, href: `${apiBase}/map/icons/sprite.svg?v=${version}#svc-icon-${name}`, size: ICON_SIZE })),
    };
  }

  /** GET /map/icons/sprite.svg */
  iconSprite(): TileAsset {
    this.spriteOnce ??= new TileAsset(Buffer.from(this.icons.spriteSvg), SVG, true);
    return this.spriteOnce;
  }

  /** A pin file (`<pin name>-<theme>.svg`), or undefined when no category has it. */
  pinIcon(file: string): TileAsset | undefined {
    const match = THEMED_SVG_FILE.exec(file);
    if (!match) return undefined;
    return this.svgAsset(`pin ${file}`, () => this.icons.pin(match[1]!, match[2] as IconTheme));
  }

  /** A weather icon file (`<slug>-<theme>.svg`; an unknown slug is drawn as `cloud`), or undefined for another name. */
  weatherIcon(file: string): TileAsset | undefined {
    const match = THEMED_SVG_FILE.exec(file);
    if (!match) return undefined;
    const slug = weatherIconSlug(match[1]!);
    return this.svgAsset(`weather ${slug}-${match[2]}`, () => weatherIconSvg(slug, match[2] as IconTheme));
  }

  private svgAsset(key: string, draw: () => string | undefined): TileAsset | undefined {
    let asset = this.svgAssets.get(key);
    if (asset === undefined) {
      const svg = draw();
      if (svg === undefined) return undefined;
      asset = new TileAsset(Buffer.from(svg), SVG, true);
      // keys are known pins and weather slugs only (unknown names answer undefined or fall back first)
      this.svgAssets.set(key, asset);
    }
    return asset;
  }
}
