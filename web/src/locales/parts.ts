/**
 * The texts /login needs, by key prefix: the sign-in page ships only these (a build-time
 * subset, `?texts=login`); the rest of the language comes with the first screen past it
 * (lib/i18n.ts loadAllTexts). A key used on the sign-in page must start with one of them
 * (src/locales/locales.test.ts checks the sign-in page's files).
 */
export const SIGN_IN_TEXT_PREFIXES = ['app.', 'login.', 'request.', 'shell.language'];

export const isSignInText = (key: string) => SIGN_IN_TEXT_PREFIXES.some((p) => key.startsWith(p));
