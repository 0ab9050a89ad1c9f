/**
 * The daily outlook's words (GET /traffic/analysed/outlook), in English or
 * Arabic, written here from the day's expected hours: no model writes them.
 * Always phrased as expectation ("expected", "usually"), never as live traffic.
 */
import type { WeatherCondition } from '../weather/weather-conditions.js';

export type OutlookLanguage = 'en' | 'ar';

export interface OutlookFacts {
  known: boolean;
  date: string;
  dow: number;
  dayType: 'ramadan' | 'holiday' | 'weekend' | 'working';
  holiday: string | null;
  schoolBreak: string | null;
  worst: { startHour: number; congestion: string; speedRatio: number } | null;
  best: { startHour: number; speedRatio: number } | null;
  iftarHour: number | null;
  weather: { condition: WeatherCondition; fromHour: number; whatIf: boolean } | null;
}

const EN_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const AR_DAYS = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'];
const EN_DAY_TYPE = { working: 'a working day', weekend: 'a weekend day', holiday: 'a public holiday', ramadan: 'a day of Ramadan' };
const AR_DAY_TYPE = { working: 'يوم عمل', weekend: 'يوم عطلة نهاية الأسبوع', holiday: 'عطلة رسمية', ramadan: 'يوم من أيام رمضان' };
const EN_CONGESTION: Record<string, string> = { light: 'light', moderate: 'moderate', heavy: 'heavy', severe: 'severe' };
const AR_CONGESTION: Record<string, string> = { light: 'خفيفة', moderate: 'متوسطة', heavy: 'كثيفة', severe: 'شديدة' };
const EN_WEATHER: Record<WeatherCondition, string> = { clear: 'clear weather', rain: 'rain', fog: 'fog', dust: 'dust', heavy_rain: 'heavy rain', snow: 'snow', storm: 'storms' };
const AR_WEATHER: Record<WeatherCondition, string> = { clear: 'طقس صافٍ', rain: 'أمطار', fog: 'ضباب', dust: 'غبار', heavy_rain: 'أمطار غزيرة', snow: 'ثلوج', storm: 'عواصف' };

/** Best and worst windows closer than this (speed ratio) are "about the same all day". */
const FLAT_DAY_SPREAD = 0.05;
const flatDay = (facts: OutlookFacts) => facts.best !== null && facts.worst !== null && facts.best.speedRatio - facts.worst.speedRatio < FLAT_DAY_SPREAD;

const hh = (hour: number) => `${String(hour % 24).padStart(2, '0')}:00`;

export function outlookText(language: OutlookLanguage, facts: OutlookFacts): { headline: string; body: string } {
  return language === 'ar' ? arabic(facts) : english(facts);
}

function english(facts: OutlookFacts): { headline: string; body: string } {
  const day = `${EN_DAYS[facts.dow]} ${facts.date}`;
  const kind = facts.holiday ? `${facts.holiday}, ${EN_DAY_TYPE.holiday}` : EN_DAY_TYPE[facts.dayType];
  if (!facts.known) return { headline: `${day}: no outlook yet`, body: 'No traffic has been learned around this point yet, so there is no outlook.' };
  const parts = [`${day} is ${kind}${facts.schoolBreak ? ` in the ${facts.schoolBreak.toLowerCase()}` : ''}.`];
  if (facts.worst && flatDay(facts)) parts.push(`Traffic is expected to be about the same (${EN_CONGESTION[facts.worst.congestion] ?? facts.worst.congestion}) through the day.`);
  else if (facts.worst) parts.push(`The heaviest traffic is expected ${hh(facts.worst.startHour)}–${hh(facts.worst.startHour + 2)} (${EN_CONGESTION[facts.worst.congestion] ?? facts.worst.congestion}).`);
  if (facts.best && !flatDay(facts)) parts.push(`The best time to drive is usually ${hh(facts.best.startHour)}–${hh(facts.best.startHour + 2)}.`);
  if (facts.iftarHour !== null) parts.push(`Roads usually fill up in the hour before iftar (about ${hh(facts.iftarHour)}) and empty out in the hour after.`);
  if (facts.weather) parts.push(`${facts.weather.whatIf ? 'With' : 'Forecast:'} ${EN_WEATHER[facts.weather.condition]}${facts.weather.whatIf ? ' assumed, expect' : ` from about ${hh(facts.weather.fromHour)};`} slower traffic than usual.`);
  parts.push('This is expected traffic from past trips, not live.');
  const headline = facts.worst ? `${day}: heaviest ${hh(facts.worst.startHour)}–${hh(facts.worst.startHour + 2)}` : `${day}: expected traffic`;
  return { headline, body: parts.join(' ') };
}

function arabic(facts: OutlookFacts): { headline: string; body: string } {
  const day = `${AR_DAYS[facts.dow]} ${facts.date}`;
  const kind = facts.holiday ? `${facts.holiday}، ${AR_DAY_TYPE.holiday}` : AR_DAY_TYPE[facts.dayType];
  if (!facts.known) return { headline: `${day}: لا توقعات بعد`, body: 'لم نتعلّم بعد حركة المرور حول هذه النقطة، لذا لا توجد توقعات.' };
  const parts = [`${day} ${kind}${facts.schoolBreak ? ` خلال ${facts.schoolBreak}` : ''}.`];
  if (facts.worst && flatDay(facts)) parts.push(`يُتوقع أن تبقى الحركة على حالها (${AR_CONGESTION[facts.worst.congestion] ?? facts.worst.congestion}) طوال اليوم.`);
  else if (facts.worst) parts.push(`يُتوقع أن تكون الحركة الأشد بين ${hh(facts.worst.startHour)} و${hh(facts.worst.startHour + 2)} (${AR_CONGESTION[facts.worst.congestion] ?? facts.worst.congestion}).`);
  if (facts.best && !flatDay(facts)) parts.push(`أفضل وقت للقيادة عادةً بين ${hh(facts.best.startHour)} و${hh(facts.best.startHour + 2)}.`);
  if (facts.iftarHour !== null) parts.push(`تزدحم الطرق عادةً في الساعة التي تسبق الإفطار (نحو ${hh(facts.iftarHour)}) وتخلو في الساعة التي تليه.`);
  if (facts.weather) parts.push(`${facts.weather.whatIf ? 'بافتراض' : 'يُتوقع'} ${AR_WEATHER[facts.weather.condition]}${facts.weather.whatIf ? '' : ` ابتداءً من نحو ${hh(facts.weather.fromHour)}`}، لذا ستكون الحركة أبطأ من المعتاد.`);
  parts.push('هذه حركة متوقعة من رحلات سابقة، وليست مباشرة.');
  const headline = facts.worst ? `${day}: الذروة ${hh(facts.worst.startHour)}–${hh(facts.worst.startHour + 2)}` : `${day}: الحركة المتوقعة`;
  return { headline, body: parts.join(' ') };
}
