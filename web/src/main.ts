/**
 * The web app's entry: header (pages, style switcher, language), the side panel with the current page,
 * and the map. Pages are hash routes (#/search, #/directions, #/navigation, #/fleet, #/developer), so the
 * server serves one page at `/`.
 */
import { currentApiKey } from './app-state.js';
import { clear, fill, h } from './dom.js';
import { initialLanguage, language, onLanguage, setLanguage, t } from './i18n.js';
import { MapView, STYLES, type StyleName } from './map-view.js';
import { developerView } from './views/developer-view.js';
import { directionsView, trip } from './views/directions-view.js';
import { fleetView } from './views/fleet-view.js';
import { navigationView } from './views/navigation-view.js';
import { searchView } from './views/search-view.js';
import type { View } from './views/view.js';

const PAGES = ['search', 'directions', 'navigation', 'fleet', 'developer'] as const;
type Page = (typeof PAGES)[number];

setLanguage(initialLanguage());

const header = document.getElementById('top')!;
const panel = document.getElementById('panel')!;
const mapElement = document.getElementById('map')!;
const map = new MapView(mapElement);
(window as unknown as { appMap: MapView }).appMap = map;

let page: Page = 'search';
let view: View | undefined;

const factories: Record<Page, () => View> = {
  search: () =>
    searchView(map, (end, where) => {
      trip[end] = where;
      location.hash = '#/directions';
    }),
  directions: () => directionsView(map),
  navigation: () => navigationView(map),
  fleet: () => fleetView(map),
  developer: () =>
    developerView(() => {
      map.reloadStyle();
      renderHeader();
    }),
};

function pageFromHash(): Page {
  const name = location.hash.replace(/^#\/?/, '').split('?')[0] as Page;
  return PAGES.includes(name) ? name : 'search';
}

function renderHeader(): void {
  const s = t();
  const select = h('select', { id: 'style-select', onchange: (event: Event) => map.setStyle((event.target as HTMLSelectElement).value as StyleName) }, ...STYLES.map((style) => h('option', { value: style, selected: style === map.styleName }, s.styles[style])));
  fill(header, 
    h('a', { href: '#panel', className: 'skip' }, s.skip),
    h('h1', {}, s.title),
    h(
      'nav',
      { 'aria-label': s.title },
      h('ul', {}, ...PAGES.map((name) => h('li', {}, h('a', { href: `#/${name}`, 'aria-current': name === page ? 'page' : undefined, 'data-page': name }, s.tabs[name])))),
    ),
    h('div', { className: 'tools' }, h('label', { for: 'style-select' }, s.mapStyle), select, h('button', { type: 'button', id: 'language-toggle', lang: language() === 'ar' ? 'en' : 'ar', 'aria-label': s.switchLanguageLabel, onclick: () => setLanguage(language() === 'ar' ? 'en' : 'ar') }, s.switchLanguage)),
    currentApiKey() ? null : h('p', { className: 'key-banner', role: 'status' }, h('a', { href: '#/developer' }, s.needKey)),
  );
  mapElement.setAttribute('aria-label', s.mapLabel);
}

function show(next: Page): void {
  view?.leave?.();
  page = next;
  clear(panel);
  view = factories[next]();
  panel.setAttribute('data-page', next);
  view.render(panel);
  renderHeader();
}

window.addEventListener('hashchange', () => show(pageFromHash()));
onLanguage(() => {
  map.reloadStyle();
  show(page);
});
show(pageFromHash());
