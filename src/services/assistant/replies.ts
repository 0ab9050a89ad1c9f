/**
 * The assistant's short replies, in the language of the message (Arabic script and Arabizi → Arabic),
 * addressing the user by first name. Facts in a reply come only from grounded data passed in.
 */
import type { ControlTarget, ControlValue, IncidentType, Intent, ReplyLanguage } from './intent.js';
import { CURRENT_LOCATION } from './intent-parser.js';

export interface GroundedPlace {
  slug: string;
  name: string;
  category: string | null;
  rating: number | null;
  lat: number;
  lng: number;
}

/** The first word of a user name, trimmed to a sane length; undefined when there is none. */
export function firstNameOf(userName: string | undefined): string | undefined {
  const first = userName?.trim().split(/\s+/)[0]?.replace(/[<>{}[\]\\]/g, '');
  return first ? first.slice(0, 40) : undefined;
}

const addressed = (language: ReplyLanguage, name: string | undefined, sentence: string) => (name ? `${name}${language === 'ar' ? '، ' : ', '}${sentence}` : sentence.charAt(0).toUpperCase() + sentence.slice(1));

export const CAPABILITIES: Record<ReplyLanguage, string> = {
  en: 'I can help with maps: finding places, directions and navigation, traffic, trip plans, map layers and reporting road incidents.',
  ar: 'أستطيع مساعدتك في الخرائط: البحث عن الأماكن، الاتجاهات والملاحة، حركة المرور، تخطيط الجولات، طبقات الخريطة والإبلاغ عن حوادث الطريق.',
};

export const BUSY: Record<ReplyLanguage, string> = {
  en: 'that service is busy right now; please try again in a moment.',
  ar: 'الخدمة مشغولة الآن، حاول مرة أخرى بعد قليل.',
};

const TARGET_NAMES: Record<ControlTarget, [string, string]> = {
  traffic: ['the traffic layer', 'طبقة حركة المرور'],
  satellite: ['satellite view', 'عرض الأقمار الصناعية'],
  '3d': ['3D view', 'العرض ثلاثي الأبعاد'],
  transit: ['the transit layer', 'طبقة النقل العام'],
  weather: ['the weather layer', 'طبقة الطقس'],
};
const VALUE_WORDS: Record<ControlValue, [string, string]> = { on: ['Turning on', 'تشغيل'], off: ['Turning off', 'إيقاف'], toggle: ['Toggling', 'تبديل'] };
const INCIDENT_NAMES: Record<IncidentType, [string, string]> = {
  accident: ['an accident', 'حادث'],
  hazard: ['a hazard', 'خطر على الطريق'],
  police: ['police', 'وجود شرطة'],
  camera: ['a speed camera', 'كاميرا سرعة'],
  closure: ['a road closure', 'إغلاق طريق'],
  jam: ['a traffic jam', 'ازدحام مروري'],
};

const placeOf = (language: ReplyLanguage, query: string | undefined) => (query === CURRENT_LOCATION || !query ? (language === 'ar' ? 'موقعك الحالي' : 'your current location') : query);

/** The reply to an action (not to a grounded answer: see traffic and place replies below). */
export function actionReply(intent: Intent, language: ReplyLanguage, name: string | undefined, places?: readonly GroundedPlace[]): string {
  const ar = language === 'ar';
  const top = places?.[0]?.name;
  const target = top ?? placeOf(language, intent.query);
  switch (intent.action) {
    case 'search':
      if (!places) return addressed(language, name, ar ? `سأبحث عن ${intent.query}.` : `searching for ${intent.query}.`);
      if (places.length === 0) return addressed(language, name, ar ? `لم أجد نتائج لـ ${intent.query}.` : `I found no places for ${intent.query}.`);
      return addressed(language, name, ar ? `وجدت ${places.length} من الأماكن لـ ${intent.query}، أولها ${top}.` : `I found ${places.length} place${places.length === 1 ? '' : 's'} for ${intent.query}; the first is ${top}.`);
    case 'directions':
      return addressed(language, name, ar ? `هذه الاتجاهات إلى ${target}.` : `here are directions to ${target}.`);
    case 'navigate':
      return addressed(language, name, ar ? `لنبدأ الملاحة إلى ${target}.` : `starting navigation to ${target}.`);
    case 'pin':
      return addressed(language, name, ar ? `وضعت دبوسًا على ${target}.` : `dropping a pin on ${target}.`);
    case 'locate':
      return addressed(language, name, ar ? `أعرض ${target} على الخريطة.` : `centring the map on ${target}.`);
    case 'control': {
      const [en, arName] = TARGET_NAMES[intent.target!];
      const [enVerb, arVerb] = VALUE_WORDS[intent.value!];
      return addressed(language, name, ar ? `${arVerb} ${arName}.` : `${enVerb.toLowerCase()} ${en}.`);
    }
    case 'itinerary': {
      const minutes = intent.timeBudgetMin ?? 240;
      const hours = minutes % 60 === 0 ? `${minutes / 60}` : (minutes / 60).toFixed(1);
      return addressed(language, name, ar ? `سأخطط لك جولة مدتها ${hours} ساعة.` : `planning a ${hours}-hour itinerary for you.`);
    }
    case 'optimize_fleet':
      return addressed(language, name, ar ? 'سأشغل محسّن الأسطول لتوزيع التوصيلات.' : 'running the fleet optimizer on your deliveries.');
    case 'report_incident': {
      const [en, arName] = INCIDENT_NAMES[intent.incidentType ?? 'hazard'];
      return addressed(language, name, ar ? `سأبلغ عن ${arName} في موقعك.` : `reporting ${en} at your location.`);
    }
    default:
      return smallTalkReply(intent, language, name);
  }
}

function smallTalkReply(intent: Intent, language: ReplyLanguage, name: string | undefined): string {
  const ar = language === 'ar';
  switch (intent.topic) {
    case 'greeting':
      return addressed(language, name, ar ? `أهلًا! ${CAPABILITIES.ar}` : `hello! ${CAPABILITIES.en}`);
    case 'thanks':
      return addressed(language, name, ar ? 'على الرحب والسعة.' : "you're welcome.");
    default:
      // off-topic, help and anything not understood: the one sentence of what the assistant does
      return name ? addressed(language, name, CAPABILITIES[language].charAt(0).toLowerCase() + CAPABILITIES[language].slice(1)) : CAPABILITIES[language];
  }
}

export function busyReply(language: ReplyLanguage, name: string | undefined): string {
  return addressed(language, name, BUSY[language]);
}
