/**
 * What every public page runs once it has painted (BaseLayout): the header's menu and account item
 * (site-header.ts), and the compare tray, "Compare" checkboxes and hearts (agent-lists-ui.ts). It is not needed to
 * draw the page, so it loads after the first paint, as every processed script does (./after-paint.ts): its requests
 * then no longer sit on the path to the first and largest paint (on Lighthouse's slow 4G the module scripts requested
 * during parsing cost about 300 ms of FCP on the agent page). The visit's UTM parameters are
 * not captured here: a visitor may leave before this runs, so the inline script of UtmCapture.astro stores them
 * while the page parses.
 */
import { enhanceAgentLists } from '~/lib/agent-lists-ui'
import { enhanceHeader } from '~/lib/site-header'

const header = document.querySelector<HTMLElement>('[data-site-header]')
if (header) enhanceHeader(header)
enhanceAgentLists()
