/**
 * Holidays of Jordan, Lebanon, Palestine, Syria and Iraq (date-holidays has
 * none of them): official lists, with their sources in docs/calendars.md.
 * Iraq's Kurdistan Region keeps its own days: those are city holidays.
 */
import type { CountryHolidayTable } from './holiday-table.js';
import type { HolidayRule } from './holiday-rules.js';
import { arafah, ashura, christmas, commonIslamic, easter, eidAlAdha, eidAlFitr, fixed, islamicNewYear, labourDay, newYearsDay, nthWeekdayRule, prophetsBirthday } from './rule-builders.js';

export const JO_HOLIDAYS: CountryHolidayTable = {
  rules: [
    newYearsDay(),
    labourDay(),
    fixed('independence-day', 5, 25, 'Independence Day', 'عيد الاستقلال', 'national'),
    christmas(),
    ...commonIslamic(3, 3, { israMiraj: true }),
  ],
};

export const LB_HOLIDAYS: CountryHolidayTable = {
  rules: [
    newYearsDay(),
    fixed('armenian-christmas', 1, 6, 'Armenian Orthodox Christmas Day', 'عيد الميلاد عند الأرمن الأرثوذكس', 'religious', { since: 1995 }),
    fixed('saint-maron', 2, 9, "Saint Maron's Day", 'عيد مار مارون', 'religious'),
    fixed('rafik-hariri', 2, 14, 'Rafik Hariri Memorial Day', 'ذكرى استشهاد الرئيس رفيق الحريري', 'national', { since: 2020 }),
    fixed('annunciation-1995', 3, 25, 'Feast of the Annunciation', 'عيد البشارة', 'religious', { since: 1995, until: 2005 }),
    fixed('annunciation', 3, 25, 'Feast of the Annunciation', 'عيد البشارة', 'religious', { since: 2010 }),
    easter('catholic-good-friday', 'western', -2, 'Catholic Good Friday', 'الجمعة العظيمة عند الطوائف الكاثوليكية'),
    easter('catholic-easter-monday-1986', 'western', 1, 'Catholic Easter Monday', 'اثنين الفصح عند الطوائف الكاثوليكية', { since: 1986, until: 1994 }),
    easter('catholic-easter-monday', 'western', 1, 'Catholic Easter Monday', 'اثنين الفصح عند الطوائف الكاثوليكية', { since: 2020 }),
    easter('orthodox-good-friday', 'orthodox', -2, 'Orthodox Good Friday', 'الجمعة العظيمة عند الطوائف الأرثوذكسية'),
    // when both churches keep Easter on one day, the Orthodox holiday is the Saturday instead of the shared Friday
    easter('orthodox-holy-saturday', 'orthodox', -1, 'Orthodox Holy Saturday', 'سبت النور عند الطوائف الأرثوذكسية', { since: 1995, onlyWhenEastersCoincide: true }),
    easter('orthodox-easter-monday-1986', 'orthodox', 1, 'Orthodox Easter Monday', 'اثنين الفصح عند الطوائف الأرثوذكسية', { since: 1986, until: 1994 }),
    easter('orthodox-easter-monday', 'orthodox', 1, 'Orthodox Easter Monday', 'اثنين الفصح عند الطوائف الأرثوذكسية', { since: 2020 }),
    // May 1 on a Sunday is also the first Sunday of May (Martyrs' Day): Labour Day moves to the Monday
    labourDay({ observed: { shifts: [{ weekday: 0, by: 1 }] } }),
    fixed('martyrs-day-fixed', 5, 6, "Martyrs' Day", 'عيد الشهداء', 'national', { until: 1993 }),
    nthWeekdayRule('martyrs-day', 5, 0, 1, "Martyrs' Day", 'عيد الشهداء', 'national', { since: 2006 }),
    nthWeekdayRule('resistance-liberation-day', 5, 0, 2, 'Resistance and Liberation Day', 'عيد المقاومة والتحرير', 'national', { since: 2006 }),
    fixed('beirut-port', 8, 4, 'Anniversary of the tragedy of Beirut port explosion', 'ذكرى انفجار مرفأ بيروت', 'observance', { since: 2021, affectsBusinessHours: true }),
    fixed('assumption', 8, 15, 'Assumption Day', 'عيد انتقال السيدة العذراء', 'religious'),
    fixed('independence-day', 11, 22, 'Independence Day', 'عيد الاستقلال', 'national'),
    christmas(),
    islamicNewYear(),
    ashura(),
    prophetsBirthday(),
    eidAlFitr(2),
    eidAlAdha(2),
  ],
};

const palestinianChristian = (church: 'western' | 'orthodox', prefix: string): HolidayRule[] => [
  easter(`${prefix}-palm-sunday`, church, -7, 'Palm Sunday', 'أحد الشعانين'),
  easter(`${prefix}-holy-thursday`, church, -3, 'Holy Thursday', 'خميس الأسرار'),
  easter(`${prefix}-good-friday`, church, -2, 'Good Friday', 'الجمعة العظيمة'),
  easter(`${prefix}-holy-saturday`, church, -1, 'Holy Saturday', 'سبت النور'),
  easter(`${prefix}-easter`, church, 0, 'Easter', 'عيد الفصح', { days: 2 }),
  easter(`${prefix}-ascension`, church, 39, 'Ascension Day', 'عيد الصعود'),
  easter(`${prefix}-pentecost`, church, 49, 'Pentecost', 'عيد العنصرة'),
];

export const PS_HOLIDAYS: CountryHolidayTable = {
  rules: [
    newYearsDay(),
    fixed('epiphany', 1, 6, 'Epiphany', 'عيد الغطاس', 'religious'),
    fixed('orthodox-christmas', 1, 7, 'Orthodox Christmas Day', 'عيد الميلاد المجيد (الأرثوذكسي)', 'religious', { days: 2 }),
    fixed('orthodox-new-year', 1, 14, "Orthodox New Year's Day", 'رأس السنة الميلادية (الأرثوذكسية)', 'religious'),
    fixed('orthodox-epiphany', 1, 19, 'Epiphany', 'عيد الغطاس (الأرثوذكسي)', 'religious'),
    fixed('womens-day', 3, 8, "International Women's Day", 'يوم المرأة العالمي', 'public'),
    ...palestinianChristian('western', 'catholic'),
    ...palestinianChristian('orthodox', 'orthodox'),
    labourDay(),
    fixed('independence-day', 11, 15, 'Independence Day', 'عيد الاستقلال', 'national'),
    fixed('catholic-christmas', 12, 25, 'Catholic Christmas Day', 'عيد الميلاد المجيد', 'religious', { days: 2 }),
    ...commonIslamic(3, 4, { israMiraj: true, arafah: false }),
  ],
};

export const SY_HOLIDAYS: CountryHolidayTable = {
  rules: [
    newYearsDay(),
    fixed('march-8-revolution', 3, 8, 'Revolution Day', 'ذكرى ثورة الثامن من آذار', 'national', { until: 2024 }),
    fixed('syrian-revolution-day', 3, 18, 'Syrian Revolution Day', 'ذكرى الثورة السورية', 'national', { since: 2025 }),
    fixed('mothers-day', 3, 21, "Mother's Day", 'عيد الأم', 'public'),
    fixed('evacuation-day', 4, 17, 'Evacuation Day', 'عيد الجلاء', 'national'),
    easter('western-easter', 'western', 0, 'Easter (Western)', 'عيد الفصح (الغربي)'),
    easter('orthodox-easter', 'orthodox', 0, 'Easter (Orthodox)', 'عيد الفصح (الشرقي)'),
    labourDay(),
    fixed('martyrs-day', 5, 6, "Martyrs' Day", 'عيد الشهداء', 'national'),
    fixed('october-war', 10, 6, 'Tishreen Liberation War Day', 'ذكرى حرب تشرين التحريرية', 'national', { until: 2024 }),
    fixed('liberation-day', 12, 8, 'Liberation Day', 'عيد التحرير', 'national', { since: 2025 }),
    christmas(),
    ...commonIslamic(3, 4),
  ],
};

const KURDISTAN_CITIES: readonly { city: string; cityAr: string }[] = [
  { city: 'Erbil', cityAr: 'أربيل' },
  { city: 'Sulaymaniyah', cityAr: 'السليمانية' },
  { city: 'Duhok', cityAr: 'دهوك' },
  { city: 'Halabja', cityAr: 'حلبجة' },
];

/** Kurdistan Region public holidays (Council of Ministers of the KRG), kept in its cities only. */
const kurdistanRules: HolidayRule[] = KURDISTAN_CITIES.flatMap(({ city, cityAr }) => [
  fixed('kurdistan-uprising', 3, 5, 'Kurdistan Uprising Day', 'ذكرى انتفاضة كردستان', 'national', { city, cityAr }),
  fixed('halabja-memorial', 3, 16, 'Halabja Memorial Day', 'ذكرى فاجعة حلبجة', 'observance', { city, cityAr, affectsBusinessHours: true }),
  fixed('kurdish-flag-day', 12, 17, 'Kurdish Flag Day', 'يوم العلم الكردستاني', 'observance', { city, cityAr, affectsBusinessHours: false }),
]);

export const IQ_HOLIDAYS: CountryHolidayTable = {
  rules: [
    newYearsDay(),
    fixed('army-day', 1, 6, 'Army Day', 'عيد الجيش', 'national'),
    fixed('nowruz', 3, 21, 'Nowruz', 'عيد نوروز', 'public'),
    labourDay(),
    fixed('republic-day', 7, 14, 'Republic Day', 'ذكرى ثورة 14 تموز', 'national'),
    fixed('national-day', 10, 3, 'National Day', 'اليوم الوطني', 'national', { since: 2020 }),
    fixed('victory-day', 12, 10, 'Victory Day', 'يوم النصر', 'national', { since: 2018 }),
    christmas({ since: 2008 }),
    islamicNewYear(),
    ashura(),
    prophetsBirthday(),
    eidAlFitr(3),
    arafah(),
    eidAlAdha(4),
    { kind: 'hijri', key: 'eid-al-ghadir', hijriMonth: 12, hijriDay: 18, name: 'Eid al-Ghadir', nameAr: 'عيد الغدير', type: 'religious', since: 2024 },
    ...kurdistanRules,
  ],
};
