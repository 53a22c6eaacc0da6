import { useEffect, useState } from 'react'

import type { FigureSale } from '@shared/figures-contract.ts'
import { parseFigureSalesParams } from '~/lib/figure-sales'
import { FigureSales } from './figure-sales'
import type * as CorrectionParts from './figure-sales-correction-parts'

type Parts = typeof CorrectionParts
type Loaded = { parts: Parts } & Awaited<ReturnType<Parts['loadSaleCorrections']>>

/**
 * /figure-sales with the claim parts on its rows: each sale an accepted correction changed carries the same marker
 * as on the profile, read live from public.agent_sale_corrections; the agent who claimed the profile (signed in) also
 * gets "Correct this sale" on each row. The parts load after the page's own JavaScript (a dynamic import), so the
 * sales show at once and the rows gain their marks when the corrections arrive. A sale removed from the agent's
 * record is not among the rows, so its mark stays on the profile's list of corrections.
 */
export function FigureSalesWithCorrections() {
  const [loaded, setLoaded] = useState<Loaded | null>(null)

  useEffect(() => {
    const parsed = parseFigureSalesParams(window.location.search)
    if (!parsed.ok) return
    let live = true
    import('./figure-sales-correction-parts')
      .then(async (parts) => ({ parts, ...(await parts.loadSaleCorrections(parsed.agentId)) }))
      .then((result) => {
        if (live) setLoaded(result)
      })
      .catch((error: unknown) => console.error('Loading the corrections of the sales failed', error))
    return () => {
      live = false
    }
  }, [])

  const marker = loaded
    ? (sale: FigureSale) => (
        <loaded.parts.SaleRowMarks sale={sale} corrections={loaded.corrections} owner={loaded.owner} />
      )
    : undefined
  return <FigureSales saleMarker={marker} />
}
