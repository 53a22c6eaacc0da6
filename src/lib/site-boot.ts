/**
 * What every public page runs once it has painted (BaseLayout): the header's menu and account item
 * (site-header.ts) and the visit's UTM parameters, kept in sessionStorage for the lead source of a later report
 * request (@shared/lead-source.ts). Neither is needed to draw the page, so BaseLayout loads this module only after
 * the first frame: its requests then no longer sit on the path to the first and largest paint (issue 16: on
 * Lighthouse's slow 4G the two module scripts requested during parsing cost about 300 ms of FCP on the agent page).
 */
import { captureUtm, visitStorage } from '@shared/lead-source.ts'
import { enhanceHeader } from '~/lib/site-header'

const header = document.querySelector<HTMLElement>('[data-site-header]')
if (header) enhanceHeader(header)
captureUtm(location.search, visitStorage())
