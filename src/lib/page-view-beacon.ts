/**
 * First-party, cookie-free page-view beacon, loaded once per public page by AnalyticsBeacon.astro. It is a processed
 * script, so like every one it loads after the first paint (./after-paint.ts): neither its bytes nor its request, to
 * another origin, cost the page's first paint anything (the project's anon key alone was about 500 compressed bytes
 * of every document when this was an inline script).
 *
 * It POSTs `{ path, referrer, utm_source, device_class }` (the track-pageview edge function's body) with the anon key
 * as `apikey` (fetch keepalive) and stores nothing in the browser. It sends nothing when the browser says Do Not
 * Track (`navigator.doNotTrack` '1') or Global Privacy Control (`navigator.globalPrivacyControl`), or when
 * localStorage `ai_exclude_analytics` is '1' (the admin app sets it for signed-in administrators, so operators do not
 * count their own visits). Bots are filtered server-side. Device class comes from the viewport width: < 768 px
 * mobile, < 1024 px tablet, else desktop. Kept free of imports so the file the visitor loads stays under 1 KB.
 */

/** The body track-pageview takes (see supabase/functions/track-pageview). */
interface PageViewBody {
  path: string
  referrer: string | null
  utm_source: string | null
  device_class: 'mobile' | 'tablet' | 'desktop'
}

/** The device class of a viewport `width` in CSS pixels. */
function deviceClass(width: number): PageViewBody['device_class'] {
  return width < 768 ? 'mobile' : width < 1024 ? 'tablet' : 'desktop'
}

/** Whether this browser asked not to be counted (Do Not Track, Global Privacy Control, an operator's browser). */
function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean }
  try {
    return (
      nav.doNotTrack === '1' ||
      nav.globalPrivacyControl === true ||
      localStorage.getItem('ai_exclude_analytics') === '1'
    )
  } catch {
    // storage blocked: the visitor's other signals decide
    return nav.doNotTrack === '1' || nav.globalPrivacyControl === true
  }
}

const apiUrl = (import.meta.env.PUBLIC_SUPABASE_URL ?? '').trim().replace(/\/+$/, '')
const apikey = (import.meta.env.PUBLIC_SUPABASE_ANON_KEY ?? '').trim()

if (apiUrl && apikey && !optedOut()) {
  const body: PageViewBody = {
    path: location.pathname,
    referrer: document.referrer || null,
    utm_source: new URLSearchParams(location.search).get('utm_source'),
    device_class: deviceClass(innerWidth),
  }
  fetch(`${apiUrl}/functions/v1/track-pageview`, {
    method: 'POST',
    keepalive: true,
    headers: { apikey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => {
    // a lost page view is not worth a visible error
  })
}
