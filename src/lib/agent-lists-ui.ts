/**
 * The agent lists on prebuilt pages, without a framework (loaded by ./site-boot.ts after the first paint): fills the
 * compare tray (src/components/CompareTray.astro), keeps every "Compare" checkbox (CompareToggle.astro) and heart
 * (SaveAgentButton.astro) in step with the lists, and handles their clicks by delegation, so React islands that render
 * the same data attributes need nothing else. For a signed-in visitor it starts the account sync (./account-sync.ts,
 * loaded only then). Store and rules: ./agent-lists.ts.
 */
import { COMPARE_MAX_AGENTS, agentUrl, compareUrl } from '@shared/urls.ts'
import { buttonReady } from '~/lib/early-click'
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

function renderTray() {
  const tray = document.querySelector<HTMLElement>('[data-compare-tray]')
  if (!tray) return
  const entries = readCompare()
  tray.hidden = entries.length === 0
  // room below the page for the fixed tray, so it never covers the footer's last line
  document.body.style.paddingBottom = entries.length === 0 ? '' : `${tray.offsetHeight}px`
  if (entries.length === 0) return
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
