/**
 * SSML 1.1 for spoken guidance: a `<speak>` document in the text's language
 * with a short break between sentences ("Turn left. Then, in 40 meters, …"),
 * codes that mix letters and digits (exit "12B", road "E75") spelled with
 * `<say-as interpret-as="characters">`, and runs of the other script marked
 * with `<lang>` (an Arabic street name in English guidance) so the engine
 * switches voice instead of mangling them. Every text node is XML-escaped.
 */

const SSML_NAMESPACE = 'http://www.w3.org/2001/10/synthesis';
/** Pause between sentences: long enough to separate two maneuvers, short enough not to drag. */
const SENTENCE_BREAK = '<break time="300ms"/>';

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

const CODE = /\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z\d]{2,8}\b/g;
const ARABIC_RUN = /[\u0600-\u06FF\u0750-\u077F]+(?:[\s\u060C]+[\u0600-\u06FF\u0750-\u077F]+)*/g;
const LATIN_RUN = /[A-Za-z][A-Za-z'’-]*(?:\s+[A-Za-z][A-Za-z'’-]*)*/g;

/** One sentence as SSML content: escaped, with codes spelled and foreign-script runs marked. */
function sentenceMarkup(sentence: string, language: 'en' | 'ar'): string {
  const foreign = language === 'en' ? ARABIC_RUN : LATIN_RUN;
  const foreignLanguage = language === 'en' ? 'ar' : 'en';
  let markup = '';
  let last = 0;
  for (const match of sentence.matchAll(foreign)) {
    markup += codes(sentence.slice(last, match.index));
    markup += `<lang xml:lang="${foreignLanguage}">${codes(match[0])}</lang>`;
    last = match.index + match[0].length;
  }
  return markup + codes(sentence.slice(last));
}

function codes(text: string): string {
  let markup = '';
  let last = 0;
  for (const match of text.matchAll(CODE)) {
    markup += escapeXml(text.slice(last, match.index));
    markup += `<say-as interpret-as="characters">${escapeXml(match[0])}</say-as>`;
    last = match.index + match[0].length;
  }
  return markup + escapeXml(text.slice(last));
}

/** Sentences end at . ! ? ؟ followed by a space (the period of "1.5" or "St.Mark" does not end one). */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?\u061F])\s+/).filter((sentence) => sentence.length > 0);
}

/** The SSML document speaking `text` (already normalized) in `languageTag` (`en-US`, `ar-EG`, …). */
export function ssmlDocument(text: string, languageTag: string): string {
  const language = languageTag.toLowerCase().startsWith('ar') ? 'ar' : 'en';
  const body = sentencesOf(text)
    .map((sentence) => sentenceMarkup(sentence, language))
    // the space stays in the text: the document's text content is exactly the normalized text
    .join(` ${SENTENCE_BREAK}`);
  return `<speak version="1.1" xmlns="${SSML_NAMESPACE}" xml:lang="${escapeXml(languageTag)}">${body}</speak>`;
}
