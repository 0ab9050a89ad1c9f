import { z } from 'zod';
import { principalOf } from '../auth/bearer-guard.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { monthStartBody, monthStartParams, monthStartYearParams } from '../../services/calendars/calendar-queries.js';
import { monthStartRecordSchema } from '../../services/calendars/calendar-responses.js';
import type { MonthStartAnnouncements } from '../../services/calendars/month-start-announcements.js';

const route = { tags: ['admin', 'holidays'], errors: ['FORBIDDEN' as const] };
const monthState = z.object({ country: z.string(), hijriYear: z.number().int(), hijriMonth: z.number().int(), start: z.string(), status: z.string(), computed: z.string() });

/** Operators announce, confirm, correct or withdraw a Hijri month start (spec part 2 §3); every process follows within seconds. */
export function adminCalendarRoutes(announcements: MonthStartAnnouncements): RouteDefinition[] {
  const changeOf = (params: z.infer<typeof monthStartParams>) => ({ country: params.country, hijriYear: params.year, hijriMonth: params.month });
  return [
    defineRoute({
      ...route,
      method: 'PUT',
      path: '/admin/calendars/{country}/hijri/{year}/{month}',
      summary: 'Announce, confirm or correct the first day of a Hijri month (status announced|confirmed); dependent holidays move with it',
      params: monthStartParams,
      body: monthStartBody,
      response: z.object({ month: monthState, record: monthStartRecordSchema }),
      errors: ['FORBIDDEN', 'MONTH_START_IMPLAUSIBLE'],
      handler: async (context) => {
        const change = changeOf(context.params);
        const { start, status, note } = context.body;
        const record = await announcements.set(principalOf(context).userId, change, start, status, note);
        return { month: announcements.monthOf(change), record };
      },
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/admin/calendars/{country}/hijri/{year}/{month}',
      summary: 'Withdraw an announced start: the month goes back to its computed (expected) start',
      params: monthStartParams,
      response: z.object({ month: monthState, record: monthStartRecordSchema }),
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      handler: async (context) => {
        const change = changeOf(context.params);
        const record = await announcements.withdraw(principalOf(context).userId, change);
        return { month: announcements.monthOf(change), record };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/admin/calendars/{country}/hijri/{year}',
      summary: "A Hijri year's months as dated now, and every announcement made for it (who and when)",
      params: monthStartYearParams,
      response: z.object({ months: z.array(monthState), history: z.array(monthStartRecordSchema) }),
      handler: async ({ params }) => ({
        months: Array.from({ length: 12 }, (_, index) => announcements.monthOf({ country: params.country, hijriYear: params.year, hijriMonth: index + 1 })),
        history: await announcements.history(params.country, params.year),
      }),
    }),
  ];
}
