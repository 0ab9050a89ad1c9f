import { memoizedJson } from '../json-memo.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import type { CalendarService } from '../../services/calendars/calendar-service.js';
import { holidaysHijriQuery, holidaysListQuery, holidaysOnQuery, holidaysTodayQuery, holidaysUpcomingQuery } from '../../services/calendars/calendar-queries.js';
import {
  holidayRecordSchema,
  holidaysHijriResponse,
  holidaysOnResponse,
  holidaysTodayResponse,
  holidaysUpcomingResponse,
} from '../../services/calendars/calendar-responses.js';
import { z } from 'zod';

// access and scopes as the /holidays rows of services/access/endpoint-access.ts say
const route = { tags: ['holidays'] };

/** Holidays and Hijri calendars (spec part 2 §4.5, scope `places`); times resolve in the country's own timezone. */
export function holidayRoutes(calendars: CalendarService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/holidays',
      summary: 'Holidays of a country (default JO) or city; with from/to (at most 10 years) recurring ones are expanded to their dates',
      query: holidaysListQuery,
      response: z.array(holidayRecordSchema),
      handler: ({ query }) => calendars.list(query),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/holidays/today',
      summary: "Today's holiday (or at `at`, an ISO 8601 instant) in the country's own timezone, or null",
      query: holidaysTodayQuery,
      response: holidaysTodayResponse,
      handler: ({ query }) => calendars.today(query),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/holidays/on',
      summary: 'Whether a date (YYYY-MM-DD) is a holiday; a malformed date answers isHoliday:false with an error field',
      query: holidaysOnQuery,
      response: holidaysOnResponse,
      handler: ({ query }) => calendars.on(query),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/holidays/upcoming',
      summary: 'Holidays from today over the next `days` (default 30), soonest first; Hijri ones say whether their date is still estimated',
      query: holidaysUpcomingQuery,
      response: holidaysUpcomingResponse,
      // the service keeps the day's answer per query: its JSON is kept with it
      handler: ({ query }) => memoizedJson(calendars.upcoming(query), (answer) => answer),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/holidays/hijri',
      summary: "A Hijri year (default: the current one) as the country dates its months: method, month starts with their status, main events",
      query: holidaysHijriQuery,
      response: holidaysHijriResponse,
      handler: ({ query }) => calendars.hijriYear(query),
    }),
  ];
}
