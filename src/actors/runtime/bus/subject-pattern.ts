/** True when `subject` matches the NATS-style `pattern` (`*` one token, `>` one or more trailing tokens). */
export function subjectMatches(pattern: string, subject: string): boolean {
  if (pattern === subject) return true;
  const patternTokens = pattern.split('.');
  const subjectTokens = subject.split('.');
  for (let index = 0; index < patternTokens.length; index++) {
    const token = patternTokens[index];
    if (token === '>') return subjectTokens.length > index;
    if (index >= subjectTokens.length) return false;
    if (token !== '*' && token !== subjectTokens[index]) return false;
  }
  return patternTokens.length === subjectTokens.length;
}

const TOKEN = /^[^\s.*>]+$/;

/** Validates a subject to publish on: non-empty tokens, no wildcards, no white space. */
export function assertPublishSubject(subject: string): void {
  if (!subject.split('.').every((token) => TOKEN.test(token))) throw new Error(`Invalid subject "${subject}"`);
}

/** Validates a subscription pattern: tokens, `*`, and `>` only as the last token. */
export function assertSubscribePattern(pattern: string): void {
  const tokens = pattern.split('.');
  const valid = tokens.every(
    (token, index) => TOKEN.test(token) || token === '*' || (token === '>' && index === tokens.length - 1),
  );
  if (!valid) throw new Error(`Invalid subject pattern "${pattern}"`);
}
