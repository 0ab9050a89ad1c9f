/**
 * Helpers of the learned-traffic black-box tests: waiting for posted trips to
 * be processed, and a recent Cairo working day to simulate them on.
 */
import type { ApiClient } from './api-client.js';
import { localClock } from '../../src/services/traffic/traffic-model.js';

/** Waits until `expected` trips are done or failed and none is queued or processing; answers the model status. */
export async function waitForIngestion(client: ApiClient, expected: number, timeoutMs = 240_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await client.get('/traffic/model/status');
    const trips = status.body.trips;
    if (trips.done + trips.failed >= expected && trips.queued + trips.processing === 0) return status.body;
    if (Date.now() > deadline) throw new Error(`ingestion did not finish: ${JSON.stringify(trips)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The local date (`YYYY-MM-DD`) of the most recent Cairo working day (not Fri/Sat, not a holiday) at least a day ago. */
export async function recentWorkingDay(client: ApiClient): Promise<string> {
  for (let back = 1; back <= 7; back++) {
    const clock = localClock('EG', Date.now() - back * 86_400_000);
    if (clock.dow === 5 || clock.dow === 6) continue;
    if ((await client.get(`/holidays/on?country=EG&date=${clock.date}`)).body.isHoliday) continue;
    return clock.date;
  }
  throw new Error('no working day found in the last week');
}

/** Epoch ms of a Cairo local date and hour (+ minutes), the offset found by probing the local clock. */
export function cairoTime(date: string, hour: number, minutes = 0): number {
  for (let offset = -4; offset <= 4; offset++) {
    const at = Date.parse(`${date}T${String(hour).padStart(2, '0')}:00:00Z`) - offset * 3_600_000;
    const local = localClock('EG', at);
    if (local.hour === hour && local.date === date) return at + minutes * 60_000;
  }
  throw new Error(`no ${hour}:00 on ${date} in Cairo`);
}
