/**
 * Plus Code addresses (spec part 2 §2.3, §4.1): a point's full code, the short
 * code (area prefix dropped), the nearest named locality from the geocoding
 * index, the local address people say ("387C+2Q منطقة 6") and a share link. The
 * local address only uses the short code when that locality's point recovers
 * exactly this code; otherwise it keeps the full code, so it never misleads.
 */
import { ApiError } from '../../shared/errors.js';
import { GeocoderUnavailable, type Geocoder } from '../geocoding/geocoder.js';
import { localName } from '../geocoding/result-format.js';
import { decodePlusCode, DEFAULT_CODE_LENGTH, dropAreaPrefix, encodePlusCode, MAX_CODE_LENGTH, MIN_CODE_LENGTH, recoversTo, type DecodedPlusCode, normalizeCoordinates } from './plus-codes.js';

export interface PlusCodeAddress {
  plusCode: string;
  shortCode: string;
  locality: string | null;
  localAddress: string;
  shareUrl: string;
}

export class PlusCodeAddresses {
  constructor(
    private readonly geocoder: Geocoder,
    /** Site origin without a trailing slash (a function: the port is known only once the server listens). */
    private readonly siteUrl: () => string,
  ) {}

  private nearestLocality(lat: number, lng: number, locales: readonly string[]) {
    try {
      return this.geocoder.locality(lat, lng, locales);
    } catch (error) {
      if (error instanceof GeocoderUnavailable) return undefined; // the code itself does not need the index
      throw error;
    }
  }

  address(lat: number, lng: number, length: number, locales: readonly string[]): PlusCodeAddress {
    const plusCode = encodePlusCode(lat, lng, length);
    const shortCode = dropAreaPrefix(plusCode);
    const point = normalizeCoordinates(lat, lng);
    const locality = this.nearestLocality(point.lat, point.lng, locales);
    const recoverable = locality !== undefined && recoversTo(shortCode, plusCode, { lat: locality.lat, lng: locality.lon });
    return {
      plusCode,
      shortCode,
      locality: locality?.name ?? null,
      localAddress: locality ? `${recoverable ? shortCode : plusCode} ${locality.name}` : plusCode,
      shareUrl: `${this.siteUrl()}/a/${encodeURIComponent(plusCode)}`,
    };
  }

  /**
   * Decodes a full code, or a short one with a reference point or a locality name: the `locality`
   * parameter, or text after the code ("387C+2Q Nasr City").
   */
  decode(input: string, reference: { lat: number; lng: number } | undefined, localityName: string | undefined, locales: readonly string[]): DecodedPlusCode & { locality?: string } {
    const [code, ...rest] = input.trim().split(/\s+/);
    // a raw "+" in a query string arrives as a space: "387C+2Q" becomes "387C 2Q"
    if (code && !code.includes('+') && /^[23456789CFGHJMPQRVWX]{2,8}$/i.test(code) && /^[23456789CFGHJMPQRVWX]{0,3}$/i.test(rest[0] ?? '')) {
      throw new ApiError('VALIDATION_ERROR', { message: [`code: "${input.trim()}" has no "+"; send the code URL-encoded, with %2B for "+"`] });
    }
    const name = localityName?.trim() || rest.join(' ').trim() || undefined;
    if (reference || !name) return decodePlusCode(code ?? '', reference);
    let locality;
    try {
      locality = this.geocoder.findLocality(name);
    } catch (error) {
      if (!(error instanceof GeocoderUnavailable)) throw error;
      throw new ApiError('VALIDATION_ERROR', { message: [`locality: "${name}" cannot be looked up right now; give a reference lat and lng`] });
    }
    if (!locality) throw new ApiError('VALIDATION_ERROR', { message: [`locality: no locality named "${name}" is known; give a reference lat and lng`] });
    return { ...decodePlusCode(code ?? '', { lat: locality.lat, lng: locality.lon }), locality: localName(locality, locales) ?? name };
  }

  config() {
    return {
      plusCodesEnabled: true,
      defaultCodeLength: DEFAULT_CODE_LENGTH,
      minCodeLength: MIN_CODE_LENGTH,
      maxCodeLength: MAX_CODE_LENGTH,
      shareUrlBase: `${this.siteUrl()}/a/`,
      localities: this.geocoder.available ? 'map-data-pack' : 'unavailable',
      nationalAddress: { integrated: false, status: 'not_configured' },
    };
  }
}
