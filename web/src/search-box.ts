/**
 * A search box with autocomplete (ARIA 1.2 combobox): asks the geocoder's autocomplete (addresses, streets,
 * areas) and the place search's suggestions (places, categories) at once, in the UI's language; the server
 * understands Arabic, English and Arabizi. Arrow keys move, Enter picks, Escape closes.
 */
import { client, currentApiKey, errorText } from './app-state.js';
import { fill, h } from './dom.js';
import { language, t } from './i18n.js';

export interface Suggestion {
  id: string;
  kind: 'place' | 'category' | 'address';
  label: string;
  name: string;
  lngLat?: [number, number];
  slug?: string | null;
  category?: string | null;
  icon?: string | null;
}

let counter = 0;

export function searchBox(options: { label: string; placeholder?: string; near?: () => [number, number]; onPick: (suggestion: Suggestion) => void; value?: string }): HTMLElement {
  const id = `search-${++counter}`;
  const input = h('input', {
    id,
    type: 'search',
    role: 'combobox',
    autocomplete: 'off',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': `${id}-list`,
    placeholder: options.placeholder ?? t().searchPlaceholder,
    value: options.value ?? '',
  });
  const list = h('ul', { id: `${id}-list`, role: 'listbox', className: 'suggestions', hidden: true, 'aria-label': options.label });
  const status = h('div', { className: 'sr-only', 'aria-live': 'polite' });
  let items: Suggestion[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (index: number) => {
    active = index;
    [...list.children].forEach((child, i) => child.setAttribute('aria-selected', String(i === index)));
    if (index >= 0) input.setAttribute('aria-activedescendant', `${id}-opt-${index}`);
  };
  const pick = (index: number) => {
    const suggestion = items[index];
    if (!suggestion) return;
    input.value = suggestion.name;
    close();
    options.onPick(suggestion);
  };
  const render = () => {
    fill(list, 
      ...items.map((item, index) =>
        h(
          'li',
          { id: `${id}-opt-${index}`, role: 'option', 'aria-selected': 'false', className: `suggestion ${item.kind}`, 'data-kind': item.kind, onmousedown: (event: MouseEvent) => (event.preventDefault(), pick(index)) },
          h('span', { className: 'kind' }, item.kind === 'category' ? t().category : item.kind === 'place' ? t().place : t().address),
          h('span', { className: 'label' }, item.label),
        ),
      ),
    );
    if (!items.length && input.value.trim()) fill(list, h('li', { className: 'empty', role: 'option', 'aria-disabled': 'true' }, t().noSuggestions));
    list.hidden = !input.value.trim();
    input.setAttribute('aria-expanded', String(!list.hidden));
    status.textContent = items.length ? `${items.length}` : '';
  };
  const query = async () => {
    const q = input.value.trim();
    const mine = ++generation;
    if (!q) return (items = []), render();
    if (!currentApiKey()) {
      fill(list, h('li', { className: 'empty', role: 'option', 'aria-disabled': 'true' }, t().needKey));
      list.hidden = false;
      return;
    }
    const locale = language();
    const near = options.near?.();
    try {
      const [places, addresses] = await Promise.all([
        client.api.GET('/api/v1/search/suggestions', { params: { query: { q, locale, limit: 5 } as never } }),
        client.api.GET('/api/v1/geocode/autocomplete', { params: { query: { q, locale, limit: 5, ...(near ? { lat: Number(near[1].toFixed(5)), lon: Number(near[0].toFixed(5)) } : {}) } as never } }),
      ]);
      if (mine !== generation) return;
      const fromPlaces = ((places.data as { suggestions?: PlaceSuggestion[] } | undefined)?.suggestions ?? []).map(
        (s): Suggestion => ({ id: `p:${s.id}`, kind: s.type === 'category' ? 'category' : 'place', label: s.label, name: s.name, lngLat: s.lng !== null && s.lat !== null ? [s.lng, s.lat] : undefined, slug: s.slug, category: s.category, icon: s.icon }),
      );
      const fromGeocoder = ((addresses.data as { suggestions?: GeocodeSuggestion[] } | undefined)?.suggestions ?? []).map(
        (s): Suggestion => ({ id: `g:${s.id}`, kind: 'address', label: s.label, name: s.name, lngLat: [s.lng, s.lat], category: s.category }),
      );
      items = [...fromPlaces, ...fromGeocoder].slice(0, 8);
      render();
      if (places.error || addresses.error) status.textContent = errorText(places.error ?? addresses.error);
    } catch (error) {
      status.textContent = errorText(error);
    }
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void query(), 180);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (list.hidden) void query();
      highlight(Math.min(items.length - 1, active + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      highlight(Math.max(0, active - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      pick(active >= 0 ? active : 0);
    } else if (event.key === 'Escape') close();
  });
  input.addEventListener('blur', () => setTimeout(close, 150));
  return h('div', { className: 'search-box' }, h('label', { for: id }, options.label), input, list, status);
}

interface PlaceSuggestion {
  id: string;
  type: string;
  label: string;
  name: string;
  lat: number | null;
  lng: number | null;
  category: string | null;
  slug: string | null;
  icon: string | null;
}

interface GeocodeSuggestion {
  id: string;
  label: string;
  name: string;
  lat: number;
  lng: number;
  category?: string;
}
