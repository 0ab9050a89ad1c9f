/**
 * Every country's holiday rules: its own table, plus (for the six countries
 * date-holidays covers) the library's Gregorian, Coptic and Solar Hijri rules
 * with this product's corrections. Islamic holidays are always this product's
 * own rules, dated by the country's Hijri calendar.
 */
import type { CountryCode } from './country-profiles.js';
import { EG_HOLIDAYS, IR_HOLIDAYS, TR_HOLIDAYS } from './holiday-table-egypt-turkey-iran.js';
import { AE_HOLIDAYS, BH_HOLIDAYS, KW_HOLIDAYS, OM_HOLIDAYS, QA_HOLIDAYS, SA_HOLIDAYS, YE_HOLIDAYS } from './holiday-table-gulf.js';
import { IQ_HOLIDAYS, JO_HOLIDAYS, LB_HOLIDAYS, PS_HOLIDAYS, SY_HOLIDAYS } from './holiday-table-levant.js';
import type { HolidayRule, HolidayRuleBase } from './holiday-rules.js';

/** A correction to one date-holidays rule, by the library's rule text (`'09-23 since 2005'`). */
export type LibraryOverride = Partial<HolidayRuleBase> | 'drop';

export interface CountryHolidayTable {
  /** Set for countries whose Gregorian holidays come from date-holidays. */
  library?: { overrides: Readonly<Record<string, LibraryOverride>> };
  rules: readonly HolidayRule[];
}

export const HOLIDAY_TABLES: Readonly<Record<CountryCode, CountryHolidayTable>> = {
  JO: JO_HOLIDAYS,
  SA: SA_HOLIDAYS,
  AE: AE_HOLIDAYS,
  QA: QA_HOLIDAYS,
  KW: KW_HOLIDAYS,
  BH: BH_HOLIDAYS,
  OM: OM_HOLIDAYS,
  EG: EG_HOLIDAYS,
  LB: LB_HOLIDAYS,
  PS: PS_HOLIDAYS,
  IQ: IQ_HOLIDAYS,
  SY: SY_HOLIDAYS,
  YE: YE_HOLIDAYS,
  TR: TR_HOLIDAYS,
  IR: IR_HOLIDAYS,
};
