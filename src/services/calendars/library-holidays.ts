/**
 * The date-holidays library (3.x) for the countries it covers: its non-Islamic
 * rules become this product's rules (fixed dates as recurring rules; Coptic,
 * Orthodox-Easter and Solar Hijri ones dated by the library per year), with the
 * country table's corrections applied. Its Islamic rules are left out: the
 * product dates those from its own Hijri calendars.
 */
import type HolidaysClass from 'date-holidays';
import { LRUCache } from 'lru-cache';
import { type DayNumber, parseIsoDay } from './civil-days.js';
import type { CountryCode } from './country-profiles.js';
import type { HolidayRule, HolidayType } from './holiday-rules.js';
import type { CountryHolidayTable, LibraryOverride } from './holiday-table.js';

/** Islamic month names in date-holidays rules ("1 Shawwal P3D", "12 Rabi al-awwal"). */
const HIJRI_RULE = /Muharram|Safar|Rabi al|Jumada|Rajab|Shaban|Ramadan|Shawwal|Dhu al/;
const FIXED_RULE = /^(\d{2})-(\d{2})(?: since (\d{4}))?$/;

export interface HolidayLibrary {
  /** The library's rules for a country, corrected; none for a country it does not cover. */
  rulesOf(country: CountryCode, table: CountryHolidayTable): HolidayRule[];
  /** Dates of a library rule in a Gregorian year. */
  datesOf(country: CountryCode, libraryRule: string, year: number): DayNumber[];
}

interface LibraryRule {
  rule: string;
  name: string | Record<string, string | undefined>;
  type?: string;
}

const LIBRARY_TYPES: Record<string, HolidayType> = { public: 'public', bank: 'bank', optional: 'observance', school: 'observance', observance: 'observance' };

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export class DateHolidaysLibrary implements HolidayLibrary {
  private readonly instances = new Map<CountryCode, HolidaysClass>();
  /** Per country and year, the dates of each rule. */
  private readonly years = new LRUCache<string, Map<string, DayNumber[]>>({ max: 512 });

  constructor(private readonly Holidays: typeof HolidaysClass) {}

  private instance(country: CountryCode): HolidaysClass {
    let instance = this.instances.get(country);
    if (!instance) {
      instance = new this.Holidays(country, { languages: ['en'] });
      this.instances.set(country, instance);
    }
    return instance;
  }

  /** The library's rules as its data holds them (its type declarations name a class without their fields). */
  private libraryRulesOf(country: CountryCode): LibraryRule[] {
    return this.instance(country).getRules() as unknown as LibraryRule[];
  }

  rulesOf(country: CountryCode, table: CountryHolidayTable): HolidayRule[] {
    if (!table.library) return [];
    const rules: HolidayRule[] = [];
    for (const libraryRule of this.libraryRulesOf(country)) {
      if (HIJRI_RULE.test(libraryRule.rule)) continue;
      const override: LibraryOverride = table.library.overrides[libraryRule.rule] ?? {};
      if (override === 'drop') continue;
      const names = typeof libraryRule.name === 'string' ? { en: libraryRule.name } : libraryRule.name;
      const name = override.name ?? names.en;
      const nameAr = override.nameAr ?? names.ar;
      if (!name || !nameAr) throw new Error(`${country}: date-holidays rule "${libraryRule.rule}" needs an English and an Arabic name`);
      const fixed = FIXED_RULE.exec(libraryRule.rule);
      const base = {
        key: slug(name),
        type: LIBRARY_TYPES[libraryRule.type ?? 'public'] ?? 'public',
        ...(fixed?.[3] ? { since: Number(fixed[3]) } : {}),
        ...override,
        name,
        nameAr,
      };
      rules.push(
        fixed
          ? ({ ...base, kind: 'fixed', month: Number(fixed[1]), day: Number(fixed[2]) } as HolidayRule)
          : ({ ...base, kind: 'library', libraryRule: libraryRule.rule } as HolidayRule),
      );
    }
    // The library's sanity check would be "a rule we correct is still there": a renamed rule must not pass unnoticed.
    for (const corrected of Object.keys(table.library.overrides)) {
      if (!this.libraryRulesOf(country).some((rule) => rule.rule === corrected)) throw new Error(`${country}: date-holidays has no rule "${corrected}" to correct`);
    }
    return rules;
  }

  datesOf(country: CountryCode, libraryRule: string, year: number): DayNumber[] {
    const key = `${country}:${year}`;
    let byRule = this.years.get(key);
    if (!byRule) {
      byRule = new Map();
      for (const holiday of this.instance(country).getHolidays(year)) {
        const day = parseIsoDay(holiday.date.slice(0, 10));
        if (day === undefined) continue;
        byRule.set(holiday.rule, [...(byRule.get(holiday.rule) ?? []), day]);
      }
      this.years.set(key, byRule);
    }
    return byRule.get(libraryRule) ?? [];
  }
}

/** Loads date-holidays (its country data takes ~0.1 s to import, so only the process that serves calendars pays it). */
export async function loadHolidayLibrary(): Promise<HolidayLibrary> {
  const { default: Holidays } = await import('date-holidays');
  return new DateHolidaysLibrary(Holidays);
}
