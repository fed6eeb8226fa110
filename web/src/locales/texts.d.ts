// A language's sign-in texts (vite.config.ts signInTexts).
declare module '*.json?texts=login' {
  const texts: Record<string, string>;
  export default texts;
}
