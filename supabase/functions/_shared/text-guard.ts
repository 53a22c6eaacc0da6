/**
 * The text rule of every request shell (edge functions in ./http.ts, the local auth API in
 * supabase/local/auth-body.ts): no string of a JSON body, key or value, may hold a C0 control character other than
 * tab, LF and CR, DEL, or an unpaired UTF-16 surrogate. Postgres refuses U+0000 in text (which used to surface as a 500) and the others have
 * no business in names, emails, paths or passwords. No imports, so Node, Deno and the browser can load it.
 */

// C0 controls except tab, LF and CR; DEL; and unpaired surrogates (they cannot be encoded as UTF-8).
const FORBIDDEN_TEXT =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** A child's path; past 200 characters the parent's path stands for it (deep nesting must not cost quadratic memory). */
function deeper(path: string, step: string): string {
  return path.length > 200 ? path : path + step
}

/**
 * The dotted path of the first string (key or value) holding a control character or an unpaired surrogate, or
 * null when the value is clean. `body` names the top level. Iterative, so a deeply nested body cannot overflow the
 * call stack.
 */
export function findControlCharacters(value: unknown, path = 'body'): string | null {
  const pending: [unknown, string][] = [[value, path]]
  while (pending.length > 0) {
    const [item, at] = pending.pop()!
    if (typeof item === 'string') {
      if (FORBIDDEN_TEXT.test(item)) return at
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index -= 1) pending.push([item[index], deeper(at, `[${index}]`)])
    } else if (item && typeof item === 'object') {
      const entries = Object.entries(item)
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!
        if (FORBIDDEN_TEXT.test(key)) return at
        pending.push([child, at === 'body' ? key : deeper(at, `.${key}`)])
      }
    }
  }
  return null
}
