/** The class tokens of the site's client code (the ScriptTokens of ./page-css.ts), built by ./page-css-script-tokens.ts. */
declare module 'virtual:page-css-script-tokens' {
  const tokens: { always: readonly string[]; islands: Readonly<Record<string, readonly string[]>> }
  export default tokens
}
