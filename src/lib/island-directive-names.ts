/**
 * The client directives whose islands wait for the visitor (to scroll to them, to touch them), and so whose runtime
 * may load after the first paint: read by the middleware (./after-paint.ts, which takes their inline scripts out) and
 * by the module that registers them then (./island-directives.ts). Import-free, so both sides can read it.
 */
export const DEFERRED_DIRECTIVE_NAMES = ['visible', 'interaction'] as const

export type DeferredDirective = (typeof DEFERRED_DIRECTIVE_NAMES)[number]
