/**
 * Holidays of Egypt, Türkiye and Iran: their Gregorian, Coptic and Solar Hijri
 * holidays come from date-holidays (corrected and given Arabic names here),
 * their Islamic ones are dated by this product's Hijri calendars.
 */
import type { CountryHolidayTable } from './holiday-table.js';
import type { HolidayRule, HolidayRuleBase } from './holiday-rules.js';
import { arafah, eidAlAdha, eidAlFitr, fixed, islamicNewYear, prophetsBirthday } from './rule-builders.js';

export const EG_HOLIDAYS: CountryHolidayTable = {
  library: {
    overrides: {
      '01-25': { key: 'police-day', name: 'Police Day', type: 'national', since: 2009, until: 2011 },
      '01-25 since 2011': { key: 'january-25-revolution', name: 'January 25th Revolution and National Police Day', nameAr: 'عيد ثورة 25 يناير وعيد الشرطة', type: 'national', since: 2012 },
      '04-25': { key: 'sinai-liberation', type: 'national', since: 1983 },
      '05-01': { key: 'labour-day', name: 'Labour Day', nameAr: 'عيد العمال' },
      '06-30': { key: 'june-30-revolution', name: 'June 30 Revolution Day', type: 'national', since: 2014 },
      '07-23': { key: 'july-23-revolution', name: 'July 23 Revolution Day', nameAr: 'عيد ثورة 23 يوليو', type: 'national' },
      '10-06': { key: 'armed-forces-day', type: 'national' },
      'orthodox 1': { key: 'spring-festival', name: 'Spring Festival (Sham El Nessim)' },
      'julian 12-25': { key: 'coptic-christmas', name: 'Coptic Christmas Day', type: 'religious', since: 2002 },
    },
  },
  rules: [
    fixed('taba-liberation', 3, 19, 'Taba Liberation Day', 'عيد تحرير طابا', 'national', { since: 2019 }),
    fixed('evacuation-day', 6, 18, 'Evacuation Day', 'عيد الجلاء', 'national', { since: 2019 }),
    islamicNewYear(),
    prophetsBirthday(),
    eidAlFitr(3),
    arafah(),
    eidAlAdha(4),
  ],
};

export const TR_HOLIDAYS: CountryHolidayTable = {
  library: {
    overrides: {
      '01-01': { key: 'new-year', nameAr: 'رأس السنة الميلادية' },
      '04-23': { key: 'national-sovereignty-day', type: 'national', nameAr: 'عيد السيادة الوطنية والطفل' },
      '05-01': { key: 'labour-day', nameAr: 'عيد العمال والتضامن' },
      '05-19': { key: 'ataturk-youth-sports-day', type: 'national', nameAr: 'عيد إحياء ذكرى أتاتورك والشباب والرياضة' },
      '07-15': { key: 'democracy-day', type: 'national', since: 2017, nameAr: 'يوم الديمقراطية والوحدة الوطنية' },
      '08-30': { key: 'victory-day', type: 'national', nameAr: 'عيد النصر' },
      '10-29': { key: 'republic-day', type: 'national', nameAr: 'عيد الجمهورية' },
    },
  },
  rules: [
    fixed('republic-day-eve', 10, 28, 'Republic Day Eve (afternoon off)', 'عشية عيد الجمهورية (نصف يوم)', 'observance', { affectsBusinessHours: true }),
    eidAlFitr(3, { name: 'Eid al-Fitr (Ramazan Bayramı)' }),
    arafah({ name: 'Eve of Eid al-Adha (afternoon off)', nameAr: 'وقفة عيد الأضحى (نصف يوم)', type: 'observance', affectsBusinessHours: true }),
    eidAlAdha(4, { name: 'Eid al-Adha (Kurban Bayramı)' }),
  ],
};

const shia = (key: string, hijriMonth: number, hijriDay: number, name: string, nameAr: string, extra: Partial<HolidayRuleBase> = {}): HolidayRule =>
  ({ kind: 'hijri', key, hijriMonth, hijriDay, name, nameAr, type: 'religious', ...extra }) as HolidayRule;

export const IR_HOLIDAYS: CountryHolidayTable = {
  library: {
    overrides: {
      '1 Farvardin': { key: 'nowruz-1', nameAr: 'عيد النوروز' },
      '2 Farvardin': { key: 'nowruz-2', nameAr: 'عيد النوروز' },
      '3 Farvardin': { key: 'nowruz-3', nameAr: 'عيد النوروز' },
      '4 Farvardin': { key: 'nowruz-4', nameAr: 'عيد النوروز' },
      '12 Farvardin': { key: 'islamic-republic-day', type: 'national', nameAr: 'يوم الجمهورية الإسلامية' },
      '13 Farvardin': { key: 'nature-day', name: 'Nature Day (Sizdah Bedar)', nameAr: 'يوم الطبيعة (سيزده بدر)' },
      '14 Khordad': { key: 'khomeini-demise', type: 'national', nameAr: 'ذكرى رحيل الإمام الخميني' },
      '15 Khordad': { key: 'khordad-15-uprising', type: 'national', nameAr: 'ذكرى انتفاضة 15 خرداد' },
      '22 Bahman': { key: 'revolution-day', type: 'national', nameAr: 'ذكرى انتصار الثورة الإسلامية' },
      '29 Esfand': { key: 'oil-nationalization-day', type: 'national', nameAr: 'يوم تأميم صناعة النفط' },
    },
  },
  rules: [
    shia('tasua', 1, 9, "Tasu'a", 'تاسوعاء'),
    shia('ashura', 1, 10, 'Ashura', 'عاشوراء'),
    shia('arbaeen', 2, 20, "Arba'een", 'الأربعين'),
    shia('prophet-demise', 2, 28, 'Demise of the Prophet and Martyrdom of Imam Hasan', 'وفاة النبي واستشهاد الإمام الحسن'),
    shia('imam-reza-martyrdom', 2, -1, 'Martyrdom of Imam Reza', 'استشهاد الإمام الرضا'),
    shia('imam-askari-martyrdom', 3, 8, 'Martyrdom of Imam Hasan al-Askari', 'استشهاد الإمام الحسن العسكري'),
    shia('prophets-birthday', 3, 17, "Prophet's Birthday and Imam Sadiq's Birthday", 'المولد النبوي وولادة الإمام الصادق'),
    shia('fatima-martyrdom', 6, 3, 'Martyrdom of Fatima', 'استشهاد السيدة فاطمة الزهراء'),
    shia('imam-ali-birthday', 7, 13, 'Birthday of Imam Ali', 'ولادة الإمام علي'),
    shia('mabath', 7, 27, "Mab'ath", 'المبعث النبوي'),
    shia('imam-mahdi-birthday', 8, 15, 'Birthday of Imam Mahdi', 'ولادة الإمام المهدي'),
    shia('imam-ali-martyrdom', 9, 21, 'Martyrdom of Imam Ali', 'استشهاد الإمام علي'),
    eidAlFitr(2),
    shia('imam-sadiq-martyrdom', 10, 25, 'Martyrdom of Imam Sadiq', 'استشهاد الإمام الصادق'),
    eidAlAdha(1),
    shia('eid-al-ghadir', 12, 18, 'Eid al-Ghadir', 'عيد الغدير'),
  ],
};
