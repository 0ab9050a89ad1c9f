/**
 * `GET /tiles/styles` and `GET /tiles/style`: the catalogue and the style documents, each document
 * serialised once per distinct request (style, name, languages, key or not, terrain, origin,
 * versions) and kept in a small LRU with its validator.
 */
import { LRUCache } from 'lru-cache';
import { TileAsset } from '../tile-asset.js';
import { STYLE_CATALOGUE, type StyleEntry } from './style-catalogue.js';
import { buildStyle, type AssetVersions, type ElevationConfig, type ImageryConfig, type StyleDocument, type StyleRequest } from './style-document.js';

export interface MapStyleServiceOptions {
  imagery: ImageryConfig | undefined;
  elevation: ElevationConfig | undefined;
  /** Where the camera starts, `[lng, lat]`. */
  center: readonly [number, number];
  bounds: readonly [number, number, number, number] | undefined;
  /** Read per request: the vector tile version changes when the pack or the tile code does. */
  versions: () => AssetVersions;
}

export interface StyleCatalogue {
  provider: 'svc-tiles';
  count: number;
  styleUrl: string;
  styles: readonly StyleEntry[];
}

const STYLE_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Distinct documents kept: styles × languages × key or not × a few origins and names. */
const CACHED_DOCUMENTS = 512;

export class MapStyleService {
  private readonly documents = new LRUCache<string, TileAsset>({ max: CACHED_DOCUMENTS });
  private readonly layerLists = new LRUCache<string, StyleDocument['layers']>({ max: CACHED_DOCUMENTS });

  constructor(private readonly options: MapStyleServiceOptions) {}

  catalogue(apiBase: string): StyleCatalogue {
    return { provider: 'svc-tiles', count: STYLE_CATALOGUE.length, styleUrl: `${apiBase}/tiles/style`, styles: STYLE_CATALOGUE };
  }

  /**
   * The layers of a style with labels in `languages`, for the static map renderer: the document a keyed
   * client gets (no watermark layer; the renderer draws its own notice), without the elevation model.
   */
  layers(style: StyleRequest['style'], languages: readonly string[]): StyleDocument['layers'] {
    const key = JSON.stringify([style, languages]);
    let layers = this.layerLists.get(key);
    if (!layers) {
      const request: StyleRequest = { style, name: undefined, languages, authenticated: true, terrain: false };
      const context = { apiBase: '', versions: this.options.versions(), center: this.options.center, bounds: this.options.bounds, imagery: this.options.imagery, elevation: undefined };
      layers = buildStyle(request, context).layers;
      this.layerLists.set(key, layers);
    }
    return layers;
  }

  /** The style document as a servable asset. */
  style(request: StyleRequest, apiBase: string): TileAsset {
    const versions = this.options.versions();
    const key = JSON.stringify([request.style, request.name ?? null, request.languages, request.authenticated, request.terrain, apiBase, versions]);
    let asset = this.documents.get(key);
    if (!asset) {
      const document = buildStyle(request, { apiBase, versions, center: this.options.center, bounds: this.options.bounds, imagery: this.options.imagery, elevation: this.options.elevation });
      asset = new TileAsset(Buffer.from(JSON.stringify(document)), STYLE_CONTENT_TYPE, true);
      this.documents.set(key, asset);
    }
    return asset;
  }
}
