// Deno entry of one local edge function process. Hosted Supabase's edge runtime starts each function's
// index.ts and routes /functions/v1/<slug> to its Deno.serve handler; here we do the same by pinning the
// port that Deno.serve listens on, then importing the function.
type Handler = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>

const port = Number(Deno.env.get('LOCAL_FUNCTION_PORT'))
const entry = Deno.env.get('LOCAL_FUNCTION_ENTRY')
if (!port || !entry) throw new Error('LOCAL_FUNCTION_PORT and LOCAL_FUNCTION_ENTRY must be set')

const serve = Deno.serve.bind(Deno)
// deno-lint-ignore no-explicit-any
;(Deno as any).serve = (...args: unknown[]) => {
  const handler =
    args.find((arg): arg is Handler => typeof arg === 'function') ??
    (args[0] as { handler?: Handler } | undefined)?.handler
  if (!handler) throw new Error('Deno.serve was called without a handler')
  return serve({ port, hostname: '127.0.0.1', onListen: () => console.log(`ready on ${port}`) }, handler)
}

// The local stack holds a pipe on our stdin: when it closes, the stack is gone (even killed with SIGKILL) and so are we.
if (Deno.env.get('LOCAL_FUNCTION_WATCH_STDIN') === '1') {
  ;(async () => {
    const buffer = new Uint8Array(64)
    while ((await Deno.stdin.read(buffer)) !== null) {
      /* nothing is sent; wait for end of file */
    }
    // the stack that started us is gone: exit instead of serving as an orphan (Deno.serve would keep us alive)
    Deno.exit(0)
  })()
}

await import(entry)
