/**
 * A lucide icon's SVG string (from `lucide-static`) made ready for a page: without its fixed 24 px size, with our
 * Tailwind size and colour classes, decorative (aria-hidden) unless `label` names it. Shared by Icon.astro (icons in
 * prebuilt HTML) and the scripts that build markup after the first paint (./agent-lists-ui.ts).
 */
export function iconSvg(svg: string, className = 'h-5 w-5', label?: string): string {
  const a11y = label
    ? `role="img" aria-label="${label.replace(/"/g, '&quot;')}"`
    : 'aria-hidden="true" focusable="false"'
  // lucide-static's markup: <svg class="lucide lucide-x" xmlns=... width="24" height="24" ...>
  return svg
    .replace(/\s(width|height)="24"/g, '')
    .replace(/class="([^"]*)"/, `class="$1 shrink-0 ${className}" ${a11y}`)
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim()
}
