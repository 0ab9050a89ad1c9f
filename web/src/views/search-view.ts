/** Search: the autocomplete box, results as pins with their category icons, and a place card. */
import { client, errorText } from '../app-state.js';
import { fill, h } from '../dom.js';
import { parsePoint } from '../geo.js';
import { formatNumber, language, t } from '../i18n.js';
import { collection, point, type MapView } from '../map-view.js';
import { searchBox, type Suggestion } from '../search-box.js';
import type { View } from './view.js';

export interface PlaceDetails {
  slug: string;
  name: string;
  nameAr?: string | null;
  categoryName?: string | null;
  canonicalCategorySlug?: string | null;
  center: string;
  address?: unknown;
  openingHours?: string | null;
  openState?: { isOpen?: boolean; open?: boolean; nextChange?: string | null; [field: string]: unknown } | null;
  openText?: string | null;
  holiday?: { name?: string; note?: string; [field: string]: unknown } | null;
  rating?: number;
  reviewCount?: number;
  photos?: { url?: string; imageUrl?: string; thumbnailUrl?: string; caption?: string | null }[];
  imageUrl?: string | null;
  attribution?: string;
}

export function searchView(map: MapView, goToDirections: (end: 'from' | 'to', where: { lngLat: [number, number]; name: string }) => void): View {
  const card = h('section', { className: 'card', 'aria-live': 'polite', 'data-testid': 'place-card' });
  const results = h('ul', { className: 'results', 'data-testid': 'results' });

  const showPins = (pins: { lngLat: [number, number]; name: string; icon?: string | null; slug?: string | null }[]) => {
    map.setOverlay('pins', collection(pins.map((pin) => point(pin.lngLat, { name: pin.name, icon: pin.icon ?? 'marker', slug: pin.slug ?? null }))));
    map.fitTo(pins.map((pin) => pin.lngLat));
  };

  const showCard = (place: { name: string; lngLat: [number, number]; details?: PlaceDetails; label?: string }) => {
    const s = t();
    const details = place.details;
    const open = details?.openState;
    const isOpen = open ? (open.isOpen ?? open.open) : undefined;
    const photos = details?.photos ?? [];
    fill(card, 
      h('h2', {}, place.name),
      details?.categoryName ? h('p', { className: 'muted' }, details.categoryName) : null,
      place.label && !details ? h('p', {}, place.label) : null,
      details
        ? h(
            'dl',
            {},
            h('dt', {}, s.hours),
            h('dd', {}, details.openingHours ?? '—', ' ', isOpen === undefined ? null : h('strong', { className: isOpen ? 'open' : 'closed' }, isOpen ? s.openNow : s.closedNow), details.openText ? ` · ${details.openText}` : null),
            details.holiday ? [h('dt', {}, s.holiday), h('dd', {}, String(details.holiday.note ?? details.holiday.name ?? JSON.stringify(details.holiday)))] : null,
            h('dt', {}, s.rating),
            h('dd', {}, `★ ${formatNumber(details.rating ?? 0, 1)} · ${s.reviews(details.reviewCount ?? 0)}`),
            h('dt', {}, s.photos),
            h('dd', {}, photos.length || details.imageUrl ? h('div', { className: 'photos' }, ...(details.imageUrl ? [details.imageUrl] : []).concat(photos.map((photo) => photo.thumbnailUrl ?? photo.url ?? photo.imageUrl ?? '')).filter(Boolean).slice(0, 4).map((src) => h('img', { src, alt: place.name, loading: 'lazy' }))) : s.noPhotos),
          )
        : null,
      h(
        'div',
        { className: 'actions' },
        h('button', { type: 'button', onclick: () => goToDirections('from', { lngLat: place.lngLat, name: place.name }) }, s.directionsFrom),
        h('button', { type: 'button', onclick: () => goToDirections('to', { lngLat: place.lngLat, name: place.name }) }, s.directionsTo),
      ),
      h('p', { className: 'attribution' }, details?.attribution ?? s.attributionNote),
    );
  };

  const openPlace = async (slug: string, fallback: { name: string; lngLat?: [number, number] }) => {
    const answer = await client.api.GET('/api/v1/places/{slug}', { params: { path: { slug }, query: { locale: language() } as never } });
    const details = answer.data as PlaceDetails | undefined;
    if (!details) return fill(card, h('p', { className: 'error' }, errorText(answer.error)));
    const lngLat = parsePoint(details.center) ?? fallback.lngLat!;
    showCard({ name: language() === 'ar' && details.nameAr ? details.nameAr : details.name, lngLat, details });
    if (lngLat) showPins([{ lngLat, name: details.name, icon: iconOf(details.canonicalCategorySlug), slug }]);
  };

  const pick = async (suggestion: Suggestion) => {
    fill(results);
    if (suggestion.kind === 'place' && suggestion.slug) return openPlace(suggestion.slug, suggestion);
    if (suggestion.kind === 'category' && suggestion.category) {
      const center = map.map.getCenter();
      const answer = await client.api.GET('/api/v1/search', { params: { query: { category: suggestion.category, near: `${center.lat.toFixed(5)},${center.lng.toFixed(5)}`, limit: 20, locale: language() } as never } });
      const items = ((answer.data as { items?: (PlaceDetails & { distanceKm?: number })[] } | undefined)?.items ?? []).flatMap((item) => {
        const lngLat = parsePoint(item.center);
        return lngLat ? [{ item, lngLat }] : [];
      });
      showPins(items.map(({ item, lngLat }) => ({ lngLat, name: language() === 'ar' && item.nameAr ? item.nameAr : item.name, icon: suggestion.icon, slug: item.slug })));
      fill(card, h('p', {}, t().results(items.length)));
      fill(results, 
        ...items.map(({ item, lngLat }) =>
          h('li', {}, h('button', { type: 'button', className: 'link', onclick: () => void openPlace(item.slug, { name: item.name, lngLat }) }, language() === 'ar' && item.nameAr ? item.nameAr : item.name, item.distanceKm !== undefined ? ` · ${formatNumber(item.distanceKm, 1)} km` : '')),
        ),
      );
      return;
    }
    if (suggestion.lngLat) {
      showPins([{ lngLat: suggestion.lngLat, name: suggestion.name, icon: 'marker' }]);
      showCard({ name: suggestion.name, lngLat: suggestion.lngLat, label: suggestion.label });
    }
  };

  let detach: (() => void) | undefined;
  return {
    render(panel) {
      panel.append(
        searchBox({ label: t().searchLabel, near: () => [map.map.getCenter().lng, map.map.getCenter().lat], onPick: (s) => void pick(s) }),
        card,
        results,
      );
      // a click on a pin opens its card
      const onPinClick = (event: { features?: { properties: Record<string, unknown> }[] }) => {
        const slug = event.features?.[0]?.properties.slug;
        if (typeof slug === 'string' && slug) void openPlace(slug, { name: slug });
      };
      map.map.on('click', 'pins-0', onPinClick as never);
      detach = () => map.map.off('click', 'pins-0', onPinClick as never);
    },
    leave() {
      detach?.();
      map.setOverlay('pins', undefined);
    },
  };
}

/** The sprite's Maki icon for a category slug (the suggestions carry theirs; place details do not). */
function iconOf(category: string | null | undefined): string {
  const known: Record<string, string> = { mosque: 'religious-muslim', church: 'religious-christian', pharmacy: 'pharmacy', hospital: 'hospital', restaurant: 'restaurant', cafe: 'cafe', bank: 'bank', school: 'school', fuel: 'fuel' };
  return (category && known[category]) || 'marker';
}
