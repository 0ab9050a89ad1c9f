/**
 * Saved commutes (designed; docs/commute.md): home, work, `arriveBy` (Jordan time), buffer, and the days it is
 * driven, by default the working days of the user's country (its weekend from the calendar profiles). A user
 * keeps at most MAX_COMMUTES_PER_USER; another user's id answers the same 404 as an unknown one.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';
import type { CommuteFields, CommuteRecord, CommuteRepository } from '../../store/pg/commutes.js';
import { COUNTRY_PROFILES } from '../calendars/country-profiles.js';
import { countryOrJordan } from '../traffic/traffic-model.js';
import { actingUserId } from '../user-data/acting-user.js';
import type { CommuteAdvisor } from './commute-advice.js';
import type { CommuteChangeRequest, NewCommuteRequest } from './commute-requests.js';

export const MAX_COMMUTES_PER_USER = 20;

/** The country's working days under its current weekend (0 = Sunday … 6 = Saturday). */
export function workingDays(country: string): number[] {
  const weekend = COUNTRY_PROFILES[countryOrJordan(country)].weekends[0]!.days;
  return [0, 1, 2, 3, 4, 5, 6].filter((day) => !weekend.includes(day));
}

const view = (record: CommuteRecord) => {
  const { userId: _userId, ...rest } = record;
  return { ...rest, timeZone: 'Asia/Amman' };
};

export class SavedCommutes {
  constructor(
    private readonly repository: CommuteRepository,
    private readonly advisor: CommuteAdvisor,
  ) {}

  async list(principal: Principal | undefined) {
    const items = await this.repository.list(actingUserId(principal));
    return { count: items.length, items: items.map(view) };
  }

  async create(principal: Principal | undefined, request: NewCommuteRequest) {
    const userId = actingUserId(principal);
    if ((await this.repository.count(userId)) >= MAX_COMMUTES_PER_USER) {
      throw new ApiError('VALIDATION_ERROR', { message: `At most ${MAX_COMMUTES_PER_USER} commutes per user` });
    }
    const country = countryOrJordan(request.country);
    const fields: CommuteFields = { ...request, country, weekdays: [...(request.weekdays ?? workingDays(country))].sort((a, b) => a - b) };
    return view(await this.repository.create(userId, randomUUID(), fields));
  }

  async get(principal: Principal | undefined, id: string) {
    return view(await this.owned(principal, id));
  }

  async change(principal: Principal | undefined, id: string, request: CommuteChangeRequest) {
    const current = await this.owned(principal, id);
    const country = request.country === undefined ? current.country : countryOrJordan(request.country);
    const weekdays = request.weekdays ?? (request.country === undefined ? current.weekdays : workingDays(country));
    const fields: CommuteFields = {
      name: request.name ?? current.name,
      home: request.home ?? current.home,
      work: request.work ?? current.work,
      arriveBy: request.arriveBy ?? current.arriveBy,
      bufferMin: request.bufferMin ?? current.bufferMin,
      costing: request.costing ?? current.costing,
      country,
      weekdays: [...weekdays].sort((a, b) => a - b),
      alertsEnabled: request.alertsEnabled ?? current.alertsEnabled,
    };
    const updated = await this.repository.update(current.userId, id, fields);
    if (!updated) throw new ApiError('NOT_FOUND', { message: 'Commute not found' });
    return view(updated);
  }

  async remove(principal: Principal | undefined, id: string): Promise<void> {
    if (!(await this.repository.delete(actingUserId(principal), id))) throw new ApiError('NOT_FOUND', { message: 'Commute not found' });
  }

  /** Today's advice for a saved commute (its next `arriveBy`). */
  async advice(principal: Principal | undefined, id: string) {
    const commute = await this.owned(principal, id);
    return { commuteId: id, ...(await this.advisor.advise(commute)) };
  }

  private async owned(principal: Principal | undefined, id: string): Promise<CommuteRecord> {
    const found = await this.repository.find(actingUserId(principal), id);
    if (!found) throw new ApiError('NOT_FOUND', { message: 'Commute not found' });
    return found;
  }
}
