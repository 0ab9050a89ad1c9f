import { instantOf, nextDate, wallClock } from '../../src/services/commute/zoned-time.js';

export const AMMAN = 'Asia/Amman';

/** The instant of `minuteOfDay` on the next Monday (a Jordanian working day) in Amman, at least a day ahead. */
export function nextMondayAt(minuteOfDay: number, fromMs = Date.now()): number {
  let date = nextDate(wallClock(AMMAN, fromMs).date);
  while (wallClock(AMMAN, instantOf(AMMAN, date, 12 * 60)).dow !== 1) date = nextDate(date);
  return instantOf(AMMAN, date, minuteOfDay);
}
