/** The app's two languages: English and Arabic (right to left). Map labels follow via the style's `locale`. */
export type Language = 'en' | 'ar';

const STRINGS = {
  en: {
    title: 'Location Platform',
    skip: 'Skip to the panel',
    tabs: { search: 'Search', directions: 'Directions', navigation: 'Live navigation', fleet: 'Live fleet', developer: 'Developer' },
    switchLanguage: 'العربية',
    switchLanguageLabel: 'Switch to Arabic',
    mapStyle: 'Map style',
    styles: { standard: 'Standard', positron: 'Positron', dark: 'Dark', '3d': '3D', terrain: 'Terrain' },
    mapLabel: 'Map',
    needKey: 'This needs an API key. Get one on the Developer page.',
    keyLabel: 'API key',
    searchLabel: 'Search places and addresses',
    searchPlaceholder: 'Search: مسجد, masjid, pharmacy, Abbas El Akkad…',
    noSuggestions: 'No suggestions',
    category: 'Category',
    place: 'Place',
    address: 'Address',
    results: (n: number) => `${n} results`,
    openNow: 'Open now',
    closedNow: 'Closed now',
    hours: 'Hours',
    rating: 'Rating',
    reviews: (n: number) => `${n} reviews`,
    photos: 'Photos',
    noPhotos: 'No photos yet',
    holiday: 'Holiday',
    directionsFrom: 'Directions from here',
    directionsTo: 'Directions to here',
    from: 'From',
    to: 'To',
    clickToSet: 'Or click the map: the first click sets From, the second To.',
    route: 'Get route',
    summary: (km: string, min: string) => `${km} km · ${min} min`,
    alternatives: 'Alternatives',
    alternative: (n: number) => `Alternative ${n}`,
    fastest: 'Recommended',
    maneuvers: 'Turn by turn',
    routeFailed: 'No route: ',
    navIntro: 'Creates a navigation session on the route from the Directions page (or a demo route in Nasr City) and drives it: a simulated driver sends fixes over the WebSocket, leaves the route once, and the server re-routes.',
    startReplay: 'Start replay',
    stopReplay: 'Stop',
    progress: 'Progress',
    nextManeuver: 'Next maneuver',
    remaining: (km: string, min: string) => `${km} km, ${min} min left`,
    events: 'Events',
    connection: 'Stream',
    offRouteNote: 'simulated driver leaves the route',
    eventNames: { maneuver_approaching: 'Approaching', maneuver_completed: 'Done', off_route: 'Off route', rerouted: 'Re-routed', arrived: 'Arrived' } as Record<string, string>,
    fleetIntro: 'A simulated fleet of three vehicles and eight stops in Nasr City. The server re-plans when stops are added or vehicles move; every new plan arrives on the fleet WebSocket and is redrawn. Lines join the stops in visiting order (straight, not road geometry).',
    startFleet: 'Start fleet',
    addStop: 'Add a stop',
    moveVehicles: 'Move vehicles',
    reoptimize: 'Re-optimise now',
    planVersion: 'Plan version',
    planLog: 'Plans received',
    vehicle: 'Vehicle',
    stops: 'stops',
    devIntro: 'Sign in or create an account, then create an organization, a project and an API key. The key is kept in this browser only (localStorage) and used by the other pages.',
    email: 'Email',
    password: 'Password (8+ characters)',
    name: 'Name',
    signIn: 'Sign in',
    register: 'Create account',
    signOut: 'Sign out',
    signedInAs: (e: string) => `Signed in as ${e}`,
    createKey: 'Create organization, project and key',
    keyCreated: 'Key created and used by this app. It is shown only once:',
    useKey: 'Use a key you have',
    save: 'Save',
    yourKeys: 'Your keys',
    usage: 'Usage',
    liveQuota: 'Quota (from the last answer)',
    perMinute: 'per minute',
    perDay: 'per day',
    docs: 'API reference (/docs)',
    simulated: 'Simulated',
    attributionNote: 'Map data © OpenStreetMap contributors, ODbL',
    error: 'Error',
  },
  ar: {
    title: 'منصة المواقع',
    skip: 'انتقل إلى اللوحة',
    tabs: { search: 'بحث', directions: 'الاتجاهات', navigation: 'ملاحة مباشرة', fleet: 'الأسطول المباشر', developer: 'المطوّرون' },
    switchLanguage: 'English',
    switchLanguageLabel: 'التبديل إلى الإنجليزية',
    mapStyle: 'نمط الخريطة',
    styles: { standard: 'قياسي', positron: 'فاتح', dark: 'داكن', '3d': 'ثلاثي الأبعاد', terrain: 'تضاريس' },
    mapLabel: 'الخريطة',
    needKey: 'يتطلب هذا مفتاح API. احصل على مفتاح من صفحة المطوّرين.',
    keyLabel: 'مفتاح API',
    searchLabel: 'ابحث عن الأماكن والعناوين',
    searchPlaceholder: 'ابحث: مسجد، صيدلية، شارع عباس العقاد…',
    noSuggestions: 'لا اقتراحات',
    category: 'فئة',
    place: 'مكان',
    address: 'عنوان',
    results: (n: number) => `${n} نتيجة`,
    openNow: 'مفتوح الآن',
    closedNow: 'مغلق الآن',
    hours: 'ساعات العمل',
    rating: 'التقييم',
    reviews: (n: number) => `${n} مراجعة`,
    photos: 'الصور',
    noPhotos: 'لا صور بعد',
    holiday: 'عطلة',
    directionsFrom: 'اتجاهات من هنا',
    directionsTo: 'اتجاهات إلى هنا',
    from: 'من',
    to: 'إلى',
    clickToSet: 'أو انقر على الخريطة: النقرة الأولى تحدد «من» والثانية «إلى».',
    route: 'احسب المسار',
    summary: (km: string, min: string) => `${km} كم · ${min} دقيقة`,
    alternatives: 'مسارات بديلة',
    alternative: (n: number) => `بديل ${n}`,
    fastest: 'المقترح',
    maneuvers: 'خطوة بخطوة',
    routeFailed: 'لا مسار: ',
    navIntro: 'تُنشئ جلسة ملاحة على مسار صفحة الاتجاهات (أو مسار تجريبي في مدينة نصر) وتقودها: سائق محاكى يرسل المواقع عبر WebSocket، ويخرج عن المسار مرة، فيعيد الخادم حساب المسار.',
    startReplay: 'ابدأ المحاكاة',
    stopReplay: 'إيقاف',
    progress: 'التقدم',
    nextManeuver: 'المناورة التالية',
    remaining: (km: string, min: string) => `متبقٍ ${km} كم، ${min} دقيقة`,
    events: 'الأحداث',
    connection: 'الاتصال',
    offRouteNote: 'السائق المحاكى يخرج عن المسار',
    eventNames: { maneuver_approaching: 'اقتراب', maneuver_completed: 'تم', off_route: 'خارج المسار', rerouted: 'مسار جديد', arrived: 'الوصول' } as Record<string, string>,
    fleetIntro: 'أسطول محاكى من ثلاث مركبات وثماني محطات في مدينة نصر. يعيد الخادم التخطيط عند إضافة محطات أو تحرك المركبات؛ تصل كل خطة جديدة عبر WebSocket الأسطول وتُرسم. الخطوط تصل المحطات بترتيب الزيارة (مستقيمة، لا تتبع الطرق).',
    startFleet: 'ابدأ الأسطول',
    addStop: 'أضف محطة',
    moveVehicles: 'حرّك المركبات',
    reoptimize: 'أعد التخطيط الآن',
    planVersion: 'إصدار الخطة',
    planLog: 'الخطط المستلمة',
    vehicle: 'مركبة',
    stops: 'محطات',
    devIntro: 'سجّل الدخول أو أنشئ حسابًا، ثم أنشئ مؤسسة ومشروعًا ومفتاح API. يُحفظ المفتاح في هذا المتصفح فقط وتستخدمه الصفحات الأخرى.',
    email: 'البريد الإلكتروني',
    password: 'كلمة المرور (٨ أحرف أو أكثر)',
    name: 'الاسم',
    signIn: 'تسجيل الدخول',
    register: 'إنشاء حساب',
    signOut: 'تسجيل الخروج',
    signedInAs: (e: string) => `مسجّل الدخول باسم ${e}`,
    createKey: 'أنشئ مؤسسة ومشروعًا ومفتاحًا',
    keyCreated: 'أُنشئ المفتاح ويستخدمه التطبيق الآن. يظهر مرة واحدة فقط:',
    useKey: 'استخدم مفتاحًا لديك',
    save: 'حفظ',
    yourKeys: 'مفاتيحك',
    usage: 'الاستخدام',
    liveQuota: 'الحصة (من آخر إجابة)',
    perMinute: 'في الدقيقة',
    perDay: 'في اليوم',
    docs: 'مرجع API ‏(/docs)',
    simulated: 'محاكاة',
    attributionNote: 'بيانات الخريطة © مساهمو OpenStreetMap، ‏ODbL',
    error: 'خطأ',
  },
} as const;

export type Strings = (typeof STRINGS)['en'];

let current: Language = 'en';
const listeners = new Set<(language: Language) => void>();

export function language(): Language {
  return current;
}

export function t(): Strings {
  return STRINGS[current] as unknown as Strings;
}

/** Sets the language: `lang` and `dir` on <html>, then every listener re-renders. */
export function setLanguage(next: Language): void {
  current = next;
  document.documentElement.lang = next;
  document.documentElement.dir = next === 'ar' ? 'rtl' : 'ltr';
  try {
    localStorage.setItem('svc.language', next);
  } catch {
    /* private mode */
  }
  for (const listener of listeners) listener(next);
}

export function onLanguage(listener: (language: Language) => void): void {
  listeners.add(listener);
}

export function initialLanguage(): Language {
  const hash = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const asked = hash.get('lang') ?? (() => {
    try {
      return localStorage.getItem('svc.language');
    } catch {
      return null;
    }
  })();
  return asked === 'ar' ? 'ar' : 'en';
}

/** Numbers in the UI's language (Arabic-Indic digits in Arabic). */
export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString(current === 'ar' ? 'ar-EG' : 'en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
