/**
 * Wiring of the calendars (spec part 2 §2.7, §3, §4.5): the date-holidays
 * library, the Hijri calendars with the operators' month starts in force (read
 * from SQL, followed over the bus), the calendar service and its route tables.
 */
import type { Backends } from './backends.js';
import { createSubjects } from '../actors/runtime/subjects.js';
import type { RouteDefinition } from '../edge/route.js';
import { adminCalendarRoutes } from '../edge/routes/admin-calendars.js';
import { holidayRoutes } from '../edge/routes/holidays.js';
import { CalendarService, type PlaceResolver } from '../services/calendars/calendar-service.js';
import { HijriCalendar } from '../services/calendars/hijri-calendar.js';
import { loadHolidayLibrary } from '../services/calendars/library-holidays.js';
import { AnnouncementBoard, MonthStartAnnouncements } from '../services/calendars/month-start-announcements.js';
import { countryAt } from '../services/geocoding/countries.js';
import type { Geocoder } from '../services/geocoding/geocoder.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { HijriMonthStartRepository } from '../store/pg/hijri-month-starts.js';

export interface CalendarsWiring {
  /** The calendar flags and holidays other areas consult. */
  calendars: CalendarService;
  routes: RouteDefinition[];
  stop(): void;
}

/** A point's country and city: the geocoder's admin areas, else the region's country boxes. */
function placeResolver(geocoder: Geocoder): PlaceResolver {
  return (lat, lon) => {
    try {
      const address = geocoder.reverse(lat, lon, ['en'])?.address as Record<string, string | undefined> | undefined;
      if (address?.country_code) return { country: address.country_code, city: address.city ?? address.state };
    } catch {
      // geocoding switched off or unavailable: the country boxes below still answer
    }
    const country = countryAt(lon, lat);
    return country ? { country: country.code } : undefined;
  };
}

export async function wireCalendars(config: Config, backends: Backends, geocoder: Geocoder, logger: Logger): Promise<CalendarsWiring> {
  const library = await loadHolidayLibrary();
  const board = new AnnouncementBoard();
  const hijri = new HijriCalendar(board);
  const calendars = new CalendarService({ hijri, library, announced: board, placeAt: placeResolver(geocoder) });
  const announcements = new MonthStartAnnouncements({
    store: new HijriMonthStartRepository(backends.sql),
    board,
    hijri,
    bus: backends.bus,
    subjects: createSubjects(config.BUS_NAMESPACE),
    logger,
  });
  await announcements.start();
  return { calendars, routes: [...holidayRoutes(calendars), ...adminCalendarRoutes(announcements)], stop: () => announcements.stop() };
}
