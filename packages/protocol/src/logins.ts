/**
 * How two logins are compared: Unicode NFKC (full-width and compatibility forms fold to their
 * plain letters) and case folded, so `Bob`, `BOB` and `ｂｏｂ` name the same account.
 */
export function loginKey(login: string): string {
  // Upper then lower case folds ß to ss and final sigma to sigma, as full case folding does.
  return login.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

/**
 * True when a login mixes letters of Latin, Cyrillic and Greek, the scripts whose letters look
 * alike (`аdmin` with a Cyrillic а beside `admin`).
 */
export function mixesLookalikeScripts(login: string): boolean {
  const folded = login.normalize('NFKC');
  return LOOKALIKE_SCRIPTS.filter((script) => script.test(folded)).length > 1;
}

/** The message a login that mixes look-alike scripts is refused with. */
export const MIXED_SCRIPT_LOGIN_MESSAGE =
  'Invalid request at login: must not mix Latin, Cyrillic and Greek letters';
