/**
 * The agent lists on prebuilt pages, without a framework (loaded by ./site-boot.ts after the first paint): builds and
 * fills the compare tray (a bar fixed to the bottom of the window while the visitor has agents picked for /compare),
 * keeps every "Compare" checkbox (CompareToggle.astro) and heart
 * (SaveAgentButton.astro) in step with the lists, and handles their clicks by delegation, so React islands that render
 * the same data attributes need nothing else. For a signed-in visitor it starts the account sync (./account-sync.ts,
 * loaded only then). Store and rules: ./agent-lists.ts.
 */
import { COMPARE_MAX_AGENTS, agentUrl, compareUrl } from '@shared/urls.ts'
import { X } from 'lucide-static'
import { buttonReady } from '~/lib/early-click'
import { iconSvg } from '~/lib/icon-svg'
import {
  notify,
  readCompare,
  savedAgents,
  storedAccount,
  subscribeCompare,
  subscribeSaved,
  toggleCompare,
  toggleSavedAgent,
  writeCompare,
} from './agent-lists'

/** "2 of 4 selected", with the hint to pick one more while a single agent is in. */
export function compareCountText(count: number): string {
  return `${count} of ${COMPARE_MAX_AGENTS} selected${count === 1 ? ': pick one more' : ''}`
}

/**
 * The tray's markup: made here, after the first paint, rather than sent hidden in every page (about 450 compressed
 * bytes of each document). It never shifts the page: fixed, and the page gets room below while it shows.
 */
const TRAY_HTML = `<div class="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
<div class="flex items-center justify-between gap-3 sm:order-2 sm:ml-auto sm:justify-end">
<p data-compare-count class="text-sm font-medium text-slate-800"></p>
<div class="flex items-center gap-2">
<button type="button" data-compare-clear class="rounded-control px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-700">Clear</button>
<a data-compare-go href="/compare" class="rounded-control bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 aria-disabled:pointer-events-none aria-disabled:bg-slate-200 aria-disabled:text-slate-600"></a>
</div>
</div>
<ul data-compare-names aria-label="Agents to compare" class="flex gap-2 overflow-x-auto sm:order-1 sm:flex-wrap"></ul>
<template data-compare-chip><li class="flex shrink-0 items-center gap-1 rounded-full border border-slate-300 bg-slate-50 py-1 pr-1 pl-3 text-sm text-slate-800">
<a data-chip-name class="max-w-[11rem] truncate hover:underline"></a>
<button type="button" data-chip-remove class="inline-flex h-7 w-7 items-center justify-center rounded-full text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-700">${iconSvg(X, 'h-4 w-4')}</button>
</li></template>
</div>`

/** A new, hidden tray at the end of the page (see TRAY_HTML). */
function createTray(): HTMLElement {
  const tray = document.createElement('section')
  tray.dataset.compareTray = ''
  tray.hidden = true
  tray.setAttribute('aria-label', 'Compare selection')
  tray.className =
    'fixed inset-x-0 bottom-0 z-30 border-t border-slate-300 bg-white/95 shadow-[0_-4px_16px_rgba(15,23,42,0.12)] backdrop-blur print:hidden'
  tray.innerHTML = TRAY_HTML
  document.body.append(tray)
  return tray
}

/**
 * What a heart or a full tray says (a saved agent, a failure), read out by screen readers: a live region, so it is
 * put in the page before anything is said in it (./agent-lists.ts `notify` writes into it). Empty and invisible
 * otherwise.
 */
function mountNotice(): void {
  if (document.querySelector('[data-agent-lists-notice]')) return
  const region = document.createElement('div')
  region.setAttribute('aria-live', 'polite')
  region.className = 'pointer-events-none fixed top-4 left-1/2 z-50 -translate-x-1/2 print:hidden'
  region.innerHTML =
    '<p data-agent-lists-notice hidden class="max-w-[20rem] rounded-control bg-slate-900 px-4 py-2 text-sm text-white shadow-lg"></p>'
  document.body.append(region)
}

function renderTray() {
  const entries = readCompare()
  let tray = document.querySelector<HTMLElement>('[data-compare-tray]')
  if (entries.length === 0) {
    if (tray) tray.hidden = true
    document.body.style.paddingBottom = ''
    return
  }
  tray ??= createTray()
  tray.hidden = false
  tray.querySelector('[data-compare-count]')!.textContent = compareCountText(entries.length)
  const go = tray.querySelector<HTMLAnchorElement>('[data-compare-go]')!
  const ready = entries.length >= 2
  go.textContent = ready ? `Compare ${entries.length} agents` : 'Compare'
  go.href = ready ? compareUrl(entries.map((entry) => entry.id)) : '/compare'
  if (ready) go.removeAttribute('aria-disabled')
  else go.setAttribute('aria-disabled', 'true')
  const list = tray.querySelector<HTMLElement>('[data-compare-names]')!
  const chip = tray.querySelector<HTMLTemplateElement>('template[data-compare-chip]')!
  list.replaceChildren(
    ...entries.map((entry) => {
      const item = chip.content.firstElementChild!.cloneNode(true) as HTMLElement
      const link = item.querySelector<HTMLAnchorElement>('[data-chip-name]')!
      link.textContent = entry.name
      link.href = agentUrl(entry.id)
      const remove = item.querySelector<HTMLButtonElement>('[data-chip-remove]')!
      remove.dataset.chipRemove = entry.id
      remove.setAttribute('aria-label', `Remove ${entry.name} from compare`)
      return item
    }),
  )
  // room below the page for the fixed tray, so it never covers the footer's last line
  document.body.style.paddingBottom = `${tray.offsetHeight}px`
}

function renderToggles() {
  const picked = new Set(readCompare().map((entry) => entry.id))
  const full = picked.size >= COMPARE_MAX_AGENTS
  for (const box of document.querySelectorAll<HTMLInputElement>('input[data-compare-toggle]')) {
    box.checked = picked.has(box.dataset.compareToggle!)
    box.disabled = full && !box.checked
    box.title = box.disabled ? `You can compare up to ${COMPARE_MAX_AGENTS} agents` : ''
  }
}

function renderHearts() {
  const saved = savedAgents()
  for (const heart of document.querySelectorAll<HTMLButtonElement>('button[data-save-agent]')) {
    heart.setAttribute('aria-pressed', String(saved?.has(heart.dataset.saveAgent!) ?? false))
  }
}

/** Ticks made before this module ran (the page was live, the script not yet): the tray takes them. */
function adoptEarlyTicks() {
  const picked = new Set(readCompare().map((entry) => entry.id))
  for (const box of document.querySelectorAll<HTMLInputElement>('input[data-compare-toggle]')) {
    if (box.checked && !picked.has(box.dataset.compareToggle!))
      toggleCompare({ id: box.dataset.compareToggle!, name: box.dataset.agentName ?? 'Agent' })
  }
}

/** Wires the tray, the checkboxes and the hearts of `document`. */
export function enhanceAgentLists(): void {
  mountNotice()
  adoptEarlyTicks()
  const render = () => {
    renderTray()
    renderToggles()
  }
  render()
  renderHearts()
  subscribeCompare(render)
  subscribeSaved(renderHearts)

  document.addEventListener('change', (event) => {
    const box = (event.target as HTMLElement).closest<HTMLInputElement>('input[data-compare-toggle]')
    if (!box) return
    const outcome = toggleCompare({ id: box.dataset.compareToggle!, name: box.dataset.agentName ?? 'Agent' })
    if (outcome === 'full') notify(`You can compare up to ${COMPARE_MAX_AGENTS} agents. Remove one first.`)
    renderToggles()
  })
  document.addEventListener('click', (event) => {
    const target = event.target as HTMLElement
    const remove = target.closest<HTMLButtonElement>('[data-compare-tray] [data-chip-remove]')
    if (remove) {
      writeCompare(readCompare().filter((entry) => entry.id !== remove.dataset.chipRemove))
      return
    }
    if (target.closest('[data-compare-tray] [data-compare-clear]')) {
      writeCompare([])
      return
    }
    const heart = target.closest<HTMLButtonElement>('button[data-save-agent]')
    if (heart && heart.getAttribute('aria-busy') !== 'true') {
      const wasSaved = heart.getAttribute('aria-pressed') === 'true'
      heart.setAttribute('aria-busy', 'true')
      toggleSavedAgent(heart.dataset.saveAgent!)
        .then(() => {
          if (storedAccount()) notify(wasSaved ? 'Removed from your saved agents.' : 'Saved to your account.')
        })
        .catch((error: unknown) => {
          console.error('Saving the agent failed', error)
          notify('Could not save the agent. Please try again.')
        })
        .finally(() => heart.removeAttribute('aria-busy'))
    }
  })

  // the hearts work now: a tap on one before this ran is replayed
  for (const heart of document.querySelectorAll<HTMLButtonElement>('button[data-save-agent]')) buttonReady(heart)

  if (storedAccount()) void import('./account-sync').then(({ startAccountSync }) => startAccountSync())
}
