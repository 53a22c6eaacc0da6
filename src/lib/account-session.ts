/**
 * The signed-in visitor's access token for a function call that acts on their behalf (a report request mailed at
 * once to a confirmed account email). supabase-js is loaded only when localStorage holds a session
 * (`sb-<project>-auth-token`), so signed-out visitors never download it.
 */
const SESSION_KEY = /^sb-.+-auth-token$/

/** True when localStorage holds a supabase-js session entry (not proof that it is still valid). */
export function hasStoredSession(): boolean {
  try {
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index)
      if (key && SESSION_KEY.test(key)) return true
    }
  } catch {
    // storage blocked (privacy mode): signed out
  }
  return false
}

/**
 * The current session's access token (refreshed by supabase-js when it has expired), or null when signed out or
 * when the session cannot be read.
 */
export async function signedInAccessToken(): Promise<string | null> {
  if (!hasStoredSession()) return null
  try {
    const { supabase } = await import('./supabase')
    const { data, error } = await supabase.auth.getSession()
    if (error) return null
    return data.session?.access_token ?? null
  } catch {
    return null
  }
}
