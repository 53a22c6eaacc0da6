/**
 * Escaping text into HTML, for every place that writes HTML by hand (emails, generated articles, build-time pages).
 * Import-free so Node, Vite and Deno all load it.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML element content and quoted attribute values (& < > " '). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!)
}
