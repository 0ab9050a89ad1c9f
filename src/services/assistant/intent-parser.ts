/**
 * The deterministic intent parser (docs/assistant.md): the floor under any language model. A message is
 * folded the way the geocoder folds queries (Arabic letter variants, marks, Eastern digits) and its Arabizi
 * words are also read through the geocoder's chat-alphabet rewriting (3 → ʿ, 7 → h …), then ordered rules
 * decide the action: off-topic first, then the specific actions (fleet, incident, layer control, traffic
 * questions, itinerary, navigate, directions, pin, locate), search, and small talk. Rules were tuned on
 * two-thirds of the labelled corpus (corpus.ts); the other third measures them.
 */
import { chatToLatin, foldText, isChatWord } from '../geocoding/arabic-text.js';
import type { AnswerTopic, ControlTarget, ControlValue, IncidentType, Intent, ItineraryInterest, MessageScript, ReplyLanguage } from './intent.js';

const ARABIC_SCRIPT = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;

/** Words that mark Latin-letter Arabic even without chat digits. */
const ARABIZI_WORDS = new Set([
  'wein', 'wen', 'wain', 'fein', 'feen', 'fen', 'shu', 'shou', 'esh', 'wesh', 'bdi', 'bade', 'badi', 'biddi', 'abi', 'abgha', 'ayez', 'ayza', 'khodni', 'khudni', 'wadini', 'waddini', 'wasselni', 'wassilni', 'yalla', 'yallah', 'kif', 'keef', 'ezay', 'izzay', 'hon', 'hena', 'hina', 'hal2', 'halla', 'hala2',
  'el', 'il', 'fi', 'fih', 'mafi', 'ahlan', 'marhaba', 'shukran', 'shokran', 'yislamo', 'habibi', 'qareeb', 'areeb', 'tari', 'tariq', 'matar', 'beit', 'bait', 'jam3a', 'jamaa', 'barnamej', 'barnamij', 'jawle', 'jawla', 'rehle', 'rihla', 'shaghel', 'shaghil', 'tfi', 'tafi', 'wari', 'warini', 'msakkar', 'msaker', 'shorta', 'shurta', 'radar', 'mawqaf', 'mat3am', 'makan', 'ana', 'sayyarat', 'khatet', 'wazze3', 'rattib', 'talabat', 'sawa2een', 'tawseel',
]);

export interface AnalysedMessage {
  script: MessageScript;
  language: ReplyLanguage;
  /** Folded text (lower case, Arabic letter variants folded, punctuation to spaces). */
  folded: string;
  /** The folded text with chat-alphabet words rewritten in plain Latin letters. */
  rewritten: string;
}

export function analyseMessage(message: string): AnalysedMessage {
  const folded = foldText(message);
  const words = folded.split(' ').filter(Boolean);
  const rewritten = words.map((word) => chatToLatin(word)).join(' ');
  let script: MessageScript = 'latin';
  if (ARABIC_SCRIPT.test(message)) script = 'arabic';
  else if (words.some((word) => isChatWord(word) && !/^\d+(am|pm|h|min|d|km|m|x)?$/.test(word)) || words.filter((word) => ARABIZI_WORDS.has(word)).length >= (words.length <= 2 ? 1 : 2)) script = 'arabizi';
  return { script, language: script === 'latin' ? 'en' : 'ar', folded, rewritten };
}

/** A test over both readings of the message (folded with chat digits, and rewritten). */
type Reading = (pattern: RegExp) => boolean;

// Off-topic requests and attempts to drop the rules: answered with what the assistant can do.
const OFF_TOPIC: RegExp[] = [
  /\b(ignore|disregard|forget|override)\b.*\b(rules?|instructions?|prompt|guidelines?|restrictions?)\b/,
  /\bsystem prompt\b|\bjailbreak\b|\bdan\b|\bno (restrictions|rules|limits)\b|\bdeveloper mode\b|\bpretend (you are|to be)\b|\byou are now\b|\broleplay\b|\bact as\b/,
  /\b(poem|poetry|haiku|song lyrics|limerick|joke|riddle|essay|homework|story)\b/,
  /\b(solve|equation|integral|derivative|calculate)\b|\d+\s*x\s*[+-]/,
  /\b(capital of|who won|who is the president|world cup|trivia|how old is|who invented|recipe for)\b/,
  /\b(python|javascript|typescript|java|sql|html|css|regex|function|code|program|script)\b.*\b(write|sort|fix|debug|function|list)\b|\bwrite (a|me a|some) (python|javascript|code|program|script|function)\b/,
  /\bgirlfriend\b|\bboyfriend\b|\bdate me\b|\bbitcoin\b|\bstock price\b|\bhoroscope\b/,
  /تجاهل|انس(ي|ي)?\s+(كل\s+)?(القواعد|التعليمات|الاوامر)|بدون قيود|بلا قيود|تعليمات النظام/,
  /قصيده|شعر|نكته|واجب|معادله|مساله رياضيه|عاصمه|من فاز|كاس العالم|اكتب (لي )?(قصه|كود|مقال|اغنيه)|بايثون|برمجه/,
];

// Traffic-layer control.
const CONTROL_TARGET_WORDS: [ControlTarget, RegExp][] = [
  ['satellite', /\bsatellite\b|\baerial\b|\bimagery\b|اقمار (ال)?صناعيه|قمر صناعي|صور فضاييه|فضايي|ستلايت|سatellite/],
  ['3d', /\b3d\b|\bthree d\b|\bbuildings in 3d\b|ثلاثي الابعاد|ثري دي|3 ?دي/],
  ['transit', /\btransit\b|\bpublic transport\b|\bbus (lines|routes)\b|\bmetro lines\b|النقل العام|المواصلات|مواصلات|خطوط النقل|خطوط الباص/],
  ['weather', /\bweather\b|\bta2s\b|\btaqs\b|\btas\b|\brain radar\b|الطقس|طقس|الجو/],
  ['traffic', /\btraffic\b|\bcongestion layer\b|الزحمه|زحمه|حركه المرور|حركه السير|المرور/],
];
const CONTROL_VERB = /\b(show|hide|display|turn|switch|toggle|enable|disable|activate|deactivate|layer|mode|view|map|on|off|shaghel|shaghil|tfi|tafi|wari|warini)\b|شغل|طفي|اطفي|اخفي|اعرض|اظهر|فعل|عطل|سكر|بدل|وقف|طبقه|وضع|عرض/;
const CONTROL_OFF = /\b(hide|off|disable|deactivate|remove|tfi|tafi|tafee)\b|طفي|اطفي|اخفي|سكر|عطل|وقف|شيل/;
const CONTROL_TOGGLE = /\btoggle\b|بدل عرض|^بدل (ال)?(زحمه|طقس|مواصلات|ستلايت)/;

// Incidents reported where the user is.
const INCIDENT_WORDS: [IncidentType, RegExp, boolean][] = [
  // [type, words, strong: a report on its own, without "here" or a report verb]
  ['accident', /\b(accident|crash|crashed|collision|wreck|7adeth|hadeth|7adse|hadse)\b|حادث|تصادم|تصادف|حادثه|اصطدام|دعمه/, true],
  ['camera', /\b(speed camera|radar|camera)\b|رادار|كاميرا|كامره/, true],
  ['police', /\b(police|cops?|checkpoint|patrol|shorta|shurta)\b|شرطه|دوريه|كمين|امن عام|بوليس/, false],
  ['closure', /\b(road closed|closed road|closure|road is closed|road is blocked|blocked|msakkar|msaker|m?sakar)\b|مسكر|مقفول|مغلق|مسدود|مقفل/, true],
  ['jam', /\b(jam|traffic jam|gridlock|congestion|aja|3aj2a|zahme|za7me)\b|زحمه|ازدحام|عجقه/, false],
  ['hazard', /\b(hazard|pothole|debris|flood|flooding|flooded|oil spill|obstacle|roadkill|broken down|stalled|fog|ice)\b|حفره|خطر|عايق|سيول|فيضان|زيت|حجاره|مطب/, true],
];
const REPORT_VERB = /\b(report|reporting|flag|alert others)\b|بلغ|ابلغ|تبليغ|بلاغ|بلغو/;
const HERE = /\b(here|ahead|in front|front of me|on this road|on the road|on the street|on the highway|hon|hena|odami|2odami|odamak|stuck)\b|هون|هنا|قدامي|قدام|امامي|بالشارع|علي الطريق|بالطريق|عند الاشاره|هناك/;
const EXISTENTIAL = /^(there is|there s|theres|there was|there are|fi|fih|في|فيه)(\s|$)/;
const QUESTION_CUE = /\b(now|right now|currently|usually|usual|typically|tomorrow|later|halla|hala|hal2|is there|how is|how s|hows|will)\b|هلق|هلا|الحين|دلوقتي|هسا|هسه|الان|بكره|بكرا|عاده|غدا/;

const TRAFFIC_WORDS = /\btraffic\b|\bcongest|\bjam\b|\brush hour\b|\baja\b|\bzahme\b|زحمه|ازدحام|عجقه|حركه (المرور|السير)|السير|المرور|الطريق زحمه/;
const TYPICAL_CUES = /\b(usual|usually|typical|typically|normally|tomorrow|tonight|weekend|friday|at \d{1,2}|\d{1,2} ?(am|pm)|morning|evening|if it rains|rain|raining)\b|عاده|عادتا|بكره|بكرا|غدا|الساعه|الصبح|المسا|شتت|مطر|تمطر|نهايه الاسبوع|الجمعه/;
const RAIN_CUE = /\brain|raining|rains\b|شتت|مطر|تمطر|شتا/;
const TOMORROW_CUE = /\btomorrow\b|بكره|بكرا|غدا|bokra|bukra/;
const BEST_TIME = /\bbest time\b|\bwhen should (i|we) (leave|go|head out)\b|\bwhen to leave\b|\bbest departure\b|\bahsan wat\b|\bahsan wa2t\b|\ba7san wa2t\b|احسن وقت|افضل وقت|امتي اطلع|ايمتي اطلع|متي اطلع|وقت المغادره/;

// Fleet optimisation.
const FLEET_WORDS = /\b(fleet|fleets|drivers|couriers|vans|vehicles|trucks|delivery trucks|riders|sawaeen|sawa2een)\b|اسطول|الاسطول|السواقين|سواقين|السايقين|المناديب|مناديب|المندوبين|مندوبين|العربيات|سيارات التوصيل|السيارات|astol|as6ol/;
const DELIVERY_WORDS = /\b(deliveries|delivery|orders|shipments|parcels|stops|tawseel|talabat)\b|التوصيل|توصيل|التوصيلات|الطلبات|الطلبيات|الاوردرات|الشحنات|الشحنه/;
const FLEET_VERBS = /\b(optimi[sz]e|optimi[sz]ation|optimi[sz]er|assign|dispatch|balance|split|plan|route|routes|routing|schedule|organi[sz]e|minimi[sz]e|best|distribute|wazze|waze|rattib|hassen|7assen)\b|وزع|اوزع|حسن|رتب|نظم|خطط|تحسين|محسن|توزيع/;

// Itineraries.
const ITINERARY = /\b(itinerary|tour|sightseeing|day trip|things to do|what (should|can|could) (i|we) do|what to do|plan (my|our|an?|the) (afternoon|morning|evening|day|half ?day|trip|outing)|evening out|plan (a|an) (day|evening)|barnamej|barnamij|jawle|jawla|rehle|rihla|khatet|shu amal|shu a3mal|esh a3mal)\b|برنامج|جوله|رحله|خطط (لي |لنا )?(نص|يوم|يومي|رحله)|خطه رحله|يومي في|شو (اعمل|نعمل|بعمل)|وش (اسوي|نسوي)|اقضي|نقضي|عندي (ساعه|ساعتين|\d+ ساع|ثلاث|ثلث)/;
const HAVE_HOURS = /\b(i have|we have|andi|3andi) (\d+|an?|one|two|three|four|five) (hours?|hrs?|minutes?|mins?|sa3at|sa3a)\b/;

// Navigation now.
const NAVIGATE = /^(navigate|take me|drive me|guide me|go to|go home|head to|head home|lets go|let s go|start (navigation|navigating|driving|the trip|guidance|route guidance)|begin (navigation|turn by turn|guidance)|start turn by turn)\b|\bnavigate (me )?to\b|\bnavigate home\b|\btake me (to|home)\b|\bkhodni\b|\bkhudni\b|\bwadini\b|\bwaddini\b|\bwasselni\b|\bwassilni\b|\btalani\b|\b6ala3ni\b|\byalla (3|a|al|3al|3a|ala|3ala|lal)\b|^(خذني|خدني|وديني|ودني|وصلني|وصليني|يلا (علي|ع|عال|لل|ل|الي))|خذني|خدني|وديني|وصلني|ابدا (الملاحه|التوجيه|الرحله)|شغل الملاحه|^روح (علي|الي|ع|لل)|^انطلق|^توجه/;

// Directions (a route to look at).
const DIRECTIONS = /\b(directions?|route (to|me)|the route|way to|best way|which way|how (do|can|would) (i|we) (get|reach|go)|how to get|how far|how long (does it take|to drive|to walk|is the drive)|what road|get to|kif aroo?h?|kif bwsal|kif awsal|ezay aroo?h?|ezay awsal|ta3limat|talimat|kam b3eed|kam beed|kam bieed)\b|كيف (اروح|اوصل|بوصل|بروح|نروح|اطلع)|ازاي (اروح|اوصل)|ازاي (اروح|اوصل)|(ال)?طريقا? (ل|الي|الي|علي|للم|لل)|(ال)?طريق ?ل|اقصر طريق|اتجاهات|الاتجاهات|كم (تبعد|بعيد|يبعد|بدها|المسافه)|المسافه (الي|ل)/;

// Pins.
const PIN = /\b(pin|pins|marker|drop a pin|mark (this|the|my|it)|dabboos|dabbous|3alame|alame|3allem|allem)\b|دبوس|علامه|^علم |^علم$|علم (علي|هذا|هاد|هالم)|ثبت|^حط بن|حطلي|حط (بن|دبوس|علامه)/;

// Centre the map.
const LOCATE = /\b(show me where|where the|where am i|my location|my position|my current location|locate|locating|centre|center|zoom (to|in on)|pan to|move the map|on the map|where exactly|where is|where s|where on|located|wein|wen|wain|fein|feen|fen|mawqe3|mawqe|wen ana)\b|وين|فين|اين|موقعي|ركز الخريطه|علي الخريطه|حدد موقع|موقع/;

// Search.
const NEAR = /\b(nearest|closest|near me|nearby|near here|around here|around me|close by|close to me|qareeb|areeb|2areeb|2reeb|reeb|arab|a2rab)\b|اقرب|قريب|قريبه|جنبي|حوالي|بالقرب/;
const SEARCH = /\b(find|search|looking for|look for|show me|i need|need an?|recommend|suggest|where can i (get|find|buy|eat)|open now|any good|are there any|is there an?|bade|badi|bdi|abi|abgha|ayez|ayza|3ayez|fi)\b|ابحث|دور|بدي|ابي|ابغي|ابغي|عايز|عاوز|محتاج|اقترح|دلني|اجد|الاقي|في .* قريب/;
const CATEGORY_WORDS = /\b(pharmacy|pharmacies|restaurants?|cafe|cafes|coffee|hotels?|atm|bank|banks|bakery|bakeries|mosques?|hospitals?|clinic|supermarket|grocery|gas station|petrol|fuel|parking|shawarma|falafel|pizza|burger|mall|gym|saydaliyye|saydaliya|matam|mat3am|ahwe|ahwa|qahwa|mawqaf|makhbaz|akl)\b|صيدليه|مطعم|كافيه|قهوه|فندق|صراف|بنك|مخبز|مسجد|مستشفي|سوبر ?ماركت|بنزينه|محطه بنزين|محطه وقود|موقف|مول|جيم|شاورما|فلافل/;

const GREETING = /^(hi|hello|hey|good (morning|evening|afternoon)|salam|salaam|ahlan|marhaba|hala)\b|^(مرحبا|اهلا|السلام عليكم|هلا|صباح الخير|مسا الخير)/;
const THANKS = /\b(thanks|thank you|thx|shukran|shokran|yislamo)\b|شكرا|مشكور|يسلمو|تسلم/;
const HELP = /\b(what can you do|help|what do you do|who are you|how do you work)\b|شو بتقدر|شو تقدر|ماذا تستطيع|ايش تقدر|وش تقدر|مين انت|ساعدني|مساعده/;

/** Characters of a message the rules read (messages may be 8000). */
const MAX_READ_CHARS = 1_000;

/** Reads the action and its fields from a message. Pure and fast (no I/O): the floor under any model. */
export function parseIntent(fullMessage: string): Intent {
  // What decides an action is in the first sentences; long runs of space are one space (bounded regex work).
  const message = fullMessage.replace(/\s+/g, ' ').trim().slice(0, MAX_READ_CHARS);
  const analysed = analyseMessage(message);
  const { folded, rewritten } = analysed;
  const readings = folded === rewritten ? [folded] : [folded, rewritten];
  const has: Reading = (pattern) => readings.some((text) => pattern.test(text));
  const asksQuestion = /[?؟]\s*$/.test(message.trim()) || has(QUESTION_CUE);

  if (OFF_TOPIC.some((pattern) => has(pattern))) return { action: 'answer', topic: 'off_topic' };

  // Fleet: a fleet word or deliveries, with a planning verb.
  if ((has(FLEET_WORDS) && (has(FLEET_VERBS) || /\bfleet\b|اسطول/.test(folded))) || (has(DELIVERY_WORDS) && has(FLEET_VERBS) && !has(NAVIGATE))) {
    return { action: 'optimize_fleet' };
  }

  // Incident: a report verb, or a strong incident word, or a weak one (jam, police) said as "here"/"there is" without a question.
  const incident = INCIDENT_WORDS.find(([, pattern]) => has(pattern));
  const reportVerb = has(REPORT_VERB);
  if (reportVerb || (incident && !has(CONTROL_VERB_STRICT) && !has(DIRECTIONS) && !has(NAVIGATE))) {
    const [type, , strong] = incident ?? ['hazard', /$^/, true];
    const deictic = has(HERE) || (has(EXISTENTIAL) && !asksQuestion);
    if (reportVerb || (strong && !isTrafficQuestion(has, asksQuestion)) || deictic) {
      return { action: 'report_incident', incidentType: type, query: type };
    }
  }

  // Layer control: a layer word with a control verb.
  const target = CONTROL_TARGET_WORDS.find(([, pattern]) => has(pattern))?.[0];
  if (target && has(CONTROL_VERB) && !(target === 'traffic' && isTrafficQuestion(has, asksQuestion))) {
    const value: ControlValue = has(CONTROL_TOGGLE) ? 'toggle' : has(CONTROL_OFF) ? 'off' : 'on';
    return { action: 'control', target, value };
  }

  // Traffic questions are answers grounded in the traffic model.
  if (isTrafficQuestion(has, asksQuestion) || has(BEST_TIME)) return trafficAnswer(has, folded);

  if (has(ITINERARY) || has(HAVE_HOURS)) {
    return { action: 'itinerary', timeBudgetMin: timeBudgetOf(folded, rewritten), interests: interestsOf(folded) };
  }
  if (has(NAVIGATE)) return { action: 'navigate', query: queryOf(message, 'navigate') };
  if (has(DIRECTIONS)) return { action: 'directions', query: queryOf(message, 'directions') };
  if (has(PIN)) return { action: 'pin', query: queryOf(message, 'pin') };
  const near = has(NEAR);
  if (has(LOCATE) && !near && !(has(CATEGORY_WORDS) && has(SEARCH))) return { action: 'locate', query: queryOf(message, 'locate') };
  if (near || has(SEARCH) || has(CATEGORY_WORDS)) return { action: 'search', query: queryOf(message, 'search') };

  if (has(THANKS)) return { action: 'answer', topic: 'thanks' };
  if (has(GREETING)) return { action: 'answer', topic: 'greeting' };
  if (has(HELP)) return { action: 'answer', topic: 'help' };
  return { action: 'answer', topic: 'unknown' };
}

/** Control verbs that never ask a question (used to keep "show police layer" from being a report). */
const CONTROL_VERB_STRICT = /\b(show|hide|toggle|enable|disable|turn (on|off))\b.*\b(layer|view|mode)\b|طبقه/;

function isTrafficQuestion(has: Reading, asksQuestion: boolean): boolean {
  if (!has(TRAFFIC_WORDS)) return false;
  if (has(/\bstuck\b|\breport\b|بلغ|هنا|هون|\bhon\b|\bhere\b/) && !has(/\bis there\b|\bhow\b/)) return false;
  return asksQuestion || has(TYPICAL_CUES) || has(/\b(how|what|is|any|will)\b|كيف|شو|في|فيه|هل|ايش|وش/);
}

function trafficAnswer(has: Reading, folded: string): Intent {
  const topic: AnswerTopic = has(BEST_TIME) ? 'best_departure' : has(TYPICAL_CUES) ? 'traffic_typical' : 'traffic_now';
  const intent: Intent = { action: 'answer', topic };
  if (topic === 'traffic_typical') {
    const at = /\b(?:at|الساعه)\s*(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|صباحا|مسا)?|\b(\d{1,2})\s*(am|pm)\b/.exec(folded);
    if (at) {
      let hour = Number(at[1] ?? at[4]);
      const half = at[3] ?? at[5];
      if ((half === 'pm' || half === 'مسا') && hour < 12) hour += 12;
      if ((half === 'am' || half === 'صباحا') && hour === 12) hour = 0;
      if (hour >= 0 && hour <= 23) intent.hour = hour;
    } else if (/\bmorning\b|الصبح|صباح/.test(folded)) intent.hour = 8;
    else if (/\bevening\b|المسا|مسا/.test(folded)) intent.hour = 18;
    if (has(TOMORROW_CUE)) intent.tomorrow = true;
    if (has(RAIN_CUE)) intent.rain = true;
  }
  return intent;
}

const NUMBER_WORDS = new Map<string, number>([
  ['one', 1], ['an', 1], ['a', 1], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6], ['seven', 7], ['eight', 8],
  ['ساعه', 1], ['واحده', 1], ['ثلاث', 3], ['ثلث', 3], ['تلت', 3], ['اربع', 4], ['خمس', 5], ['ست', 6],
]);

/** Minutes of an itinerary from the text: half-day and afternoon are 240, a full day 480, else hours/minutes given; 240 when none is said. */
export function timeBudgetOf(folded: string, rewritten = folded): number {
  const text = `${folded} ${rewritten}`;
  if (/\b(full day|whole day|all day|the day|day trip|a day)\b|يوم كامل|طول اليوم|ليوم|يومي|\bfull\b.*\bday\b/.test(text) && !/half ?day|nos yom|نص يوم|نصف يوم/.test(text)) return 480;
  if (/half ?day|half-day|nos yom|nus yom|نص يوم|نصف يوم|\bafternoon\b|بعد الظهر|بعد الضهر|العصر|b3d el dohr|bd el dohr/.test(text)) return 240;
  const hoursAndHalf = /(\d+|one|two|three|four|five|an|a|ساعه|sa3a|saa)\s*(hours?|hrs?|ساعات|ساعه)?\s*(and a half|w nos|و ?نص|و ?نصف)/.exec(text);
  if (hoursAndHalf) {
    const hours = /^\d+$/.test(hoursAndHalf[1]!) ? Number(hoursAndHalf[1]) : (NUMBER_WORDS.get(hoursAndHalf[1]!) ?? 1);
    return clampBudget(hours * 60 + 30);
  }
  if (/ساعتين|sa3tein|satein|saatein|two hours/.test(text)) return 120;
  const minutes = /(\d{1,3})\s*(minutes?|mins?|دقيقه|دقايق|دقايق)/.exec(text);
  if (minutes) return clampBudget(Number(minutes[1]));
  const hours = /(\d{1,2}|one|two|three|four|five|six|seven|eight|an|a|ثلاث|ثلث|تلت|اربع|خمس|ست)\s*(-| )?\s*(hours?|hrs?|h\b|ساعات|ساعه|sa3at|saat)/.exec(text);
  if (hours) {
    const count = /^\d+$/.test(hours[1]!) ? Number(hours[1]) : (NUMBER_WORDS.get(hours[1]!) ?? 1);
    return clampBudget(count * 60);
  }
  if (/\b(evening|tonight|night out)\b|الليله|المسا|بالليل/.test(text)) return 180;
  if (/\bmorning\b|الصبح|الصباح/.test(text)) return 240;
  return 240;
}

const clampBudget = (minutes: number) => Math.max(15, Math.min(24 * 60, minutes));

const INTEREST_WORDS: [ItineraryInterest, RegExp][] = [
  ['food', /\b(food|eat|eating|dinner|lunch|breakfast|restaurants?|akl)\b|اكل|مطاعم|مطعم|غدا|عشا|فطور/],
  ['coffee', /\b(coffee|cafes?|ahwe|qahwa)\b|قهوه|كافيه|مقاهي/],
  ['history', /\b(history|historic|historical|ruins|heritage|old city|citadel)\b|تاريخ|تاريخيه|اثار|اثريه|القلعه/],
  ['museums', /\b(museums?)\b|متاحف|متحف/],
  ['nature', /\b(nature|park|parks|hike|hiking|outdoors|garden|walk)\b|طبيعه|حديقه|حدايق|مشي/],
  ['shopping', /\b(shopping|shops|mall|souk|market)\b|تسوق|مول|سوق|محلات/],
  ['art', /\b(art|galleries|gallery)\b|فن|فنون|معارض/],
  ['family', /\b(kids|children|family)\b|اطفال|ولاد|عايله|العيله/],
  ['nightlife', /\b(nightlife|bars?|clubs?)\b|سهره|سهر/],
  ['religious', /\b(mosques?|churches|church|religious)\b|مساجد|مسجد|كنايس|كنيسه/],
  ['sightseeing', /\b(sightseeing|sights|landmarks|tourist)\b|معالم|سياحي|سياحه/],
];

export function interestsOf(folded: string): ItineraryInterest[] {
  return INTEREST_WORDS.filter(([, pattern]) => pattern.test(folded)).map(([interest]) => interest);
}

// Words around the place a message names, removed to leave the place: verbs, prepositions, fillers (both languages).
const LEADING: Record<'navigate' | 'directions' | 'pin' | 'locate' | 'search', RegExp[]> = {
  navigate: [
    /^.*?\b(navigate( me)?( to)?|take me( to)?|drive me( to)?|guide me( to)?|go( to)?|head( to)?|let'?s go( to)?|start (navigation|navigating|driving|the trip|guidance|turn by turn)( to)?|begin (navigation|turn by turn|guidance)( to)?)\s+/i,
    /^.*?(خذني|خدني|ودّيني|وديني|وصلني|وصليني|يلا|ابدأ الملاحة|ابدأ التوجيه|ابدا الملاحه|شغل الملاحة|روح|انطلق|توجه)\s*/,
    /^.*?\b(khodni|khudni|wadini|waddini|wasselni|wassilni|6ala3ni|yalla)\s+/i,
  ],
  directions: [
    /^.*?\b(directions?( from here)?( to)?|route( me)?( to)?|the route to|(best )?way to( get to)?|which way to|how (do|can|would) (i|we) (get|reach|go)( to)?|how to get to|how far is|how long does it take to (drive|walk|get) to|what road do i take to|get to)\s+/i,
    /^.*?(كيف (أروح|اروح|أوصل|اوصل|بوصل)|ازاي (اروح|أروح|اوصل|أوصل)|أقصر طريق|اقصر طريق|الاتجاهات|اتجاهات|الطريق|طريقا|طريق|كم تبعد|كم بدها وقت)\s*/,
    /^.*?\b(kif aroo7|kif aroo?h|kif bwsal|kif awsal|ezay aroo?h|ezay awsal|ta3limat el tari2|kam b3eed)\s+/i,
  ],
  pin: [
    /^.*?\b(drop (a )?(pin|marker)|put a (pin|marker)|add a pin|place a pin|save a pin|pin|mark)\s+/i,
    /^.*?(دبوسا?|علامة|علّم|علم|ثبّت|ثبت|بن)\s*/,
    /^.*?\b((7ot|hot) (pin|3alame|dabboos)|3allem)\s+/i,
  ],
  locate: [
    /^.*?\b(where (exactly )?is|where on the map is|locate|cent(re|er)( the map)? on|zoom to|pan to|move the map to|show me where|find|show me)\s+/i,
    /^.*?(وين موقع|وين|فين|أين تقع|أين يقع|أين|وريني|اعرض موقع|ركز الخريطة على|حدد)\s*/,
    /^.*?\b(wein|wen|fein|feen)\s+/i,
  ],
  search: [
    /^.*?\b(find( me)?|search for|looking for|look for|show me|i need|need|recommend|suggest|where can i (get|find|buy|eat)|where is|any good|are there any|is there( a| an)?|nearest|closest)\s+/i,
    /^.*?(ابحث عن|دور لي على|دور على|دور|بدي|ابي|أبي|ابغى|عايز|محتاج|اقترح علي|اقترح|دلني على|أين أجد|وين في|فين أقرب|أقرب|اقرب|في)\s*/,
    /^.*?\b(bade|badi|bdi|abi|3ayez|ayez|fi|wein a2rab|a2rab)\s+/i,
  ],
};
const TRAILING = /(^|\s+)(\b(near me|nearby|around here|close by|here|now|please|on the map|located|is|by car|right now|from|from here)\b|لو سمحت|قريبة|قريب|قريباً|على الخريطة|هون|هنا|الحين|بسرعة|بالسيارة|من هون|من هنا|من|2areeb|2reeb|qareeb|hon|hena)[\s?.!؟]*$/i;
const LEADING_FILLER = /^(to|the|a|an|me|for|on|at|some|على|الى|إلى|ع|لل|ل|عند|el|3a|3al|3ala|3ind|lal|lel|la)\s+/i;
/** Arabic "to" glued to the place: للمطار → المطار, لإربد → إربد, لجبل عمان → جبل عمان. */
const GLUED_TO = /^ل(?=[اإأآ]|جبل|مول|شارع|دوار|مدينة|جامعة)/;
/** Where the place is the user's own position. */
const SELF = /^(here|where i am|where am i|me|it|my (current )?(location|position)|this (location|spot|place)|show my location|current location|أنا|انا|ana|موقعي|مكاني|هون|هنا|hon|hena|الموقع الحالي|هذا الموقع|هذا المكان)$/i;

/** The query of a pin or locate on the user's own position (the client resolves it). */
export const CURRENT_LOCATION = 'current location';

/** The place words of a message: its own script and spelling, without the action's verbs and fillers. */
export function queryOf(message: string, action: keyof typeof LEADING): string {
  const whole = message.trim().replace(/[?؟!.]+$/, '').trim();
  let query = whole;
  for (const pattern of LEADING[action]) {
    const stripped = query.replace(pattern, '');
    if (stripped !== query) {
      query = stripped;
      break;
    }
  }
  for (let round = 0; round < 3; round++) {
    query = query.replace(TRAILING, '').replace(LEADING_FILLER, '').replace(/^لل(?=\S)/, 'ال').replace(GLUED_TO, '').trim();
  }
  if (action === 'pin' || action === 'locate') {
    if (!query || SELF.test(query) || query === whole) return CURRENT_LOCATION;
  }
  return (query || whole).slice(0, 200);
}
