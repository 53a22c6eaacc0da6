import { useEffect, useState } from 'react'

import type { FigureSale } from '@shared/figures-contract.ts'
import { signedInAccessToken } from '~/lib/account-session'
import type { SaleCorrection } from '~/lib/agent-profile'
import { parseFigureSalesParams } from '~/lib/figure-sales'
import { correctSaleUrl, fetchSaleCorrections, isAgentOwner } from '~/lib/sale-corrections'
import { SaleCorrectionMarkers } from './agent-claim-parts'
import { FigureSales } from './figure-sales'

/**
 * /figure-sales with the claim parts on its rows: each sale an accepted correction changed carries the same marker
 * as on the profile ("Side corrected: buyer side", "Price or date corrected: $610,000", ...), read live from
 * public.agent_sale_corrections; the agent who claimed the profile (signed in) also gets "Correct this sale" on each
 * row, which opens the corrections form filled in with the sale. A failed read of the corrections leaves the rows
 * unmarked (the sales and the figure do not depend on it); a sale removed from the agent's record is not among the
 * rows, so its mark stays on the profile's list of corrections.
 */
export function FigureSalesWithCorrections() {
  const [corrections, setCorrections] = useState<readonly SaleCorrection[]>([])
  const [owner, setOwner] = useState(false)

  useEffect(() => {
    const parsed = parseFigureSalesParams(window.location.search)
    if (!parsed.ok) return
    let live = true
    fetchSaleCorrections(parsed.agentId)
      .then((rows) => {
        if (live) setCorrections(rows)
      })
      .catch((error: unknown) => console.error('Loading the corrections of the sales failed', error))
    void signedInAccessToken()
      .then((token) => (token ? isAgentOwner(parsed.agentId, token) : false))
      .then((isOwner) => {
        if (live) setOwner(isOwner)
      })
    return () => {
      live = false
    }
  }, [])

  const marker = (sale: FigureSale) => (
    <>
      <SaleCorrectionMarkers
        corrections={corrections.filter((correction) => correction.property_id === sale.property_id)}
      />
      {owner && (
        <a
          href={correctSaleUrl(sale)}
          className="mt-1 block text-xs font-medium text-blue-700 underline"
          aria-label={`Correct this sale: ${sale.address}`}
        >
          Correct this sale
        </a>
      )}
    </>
  )
  return <FigureSales saleMarker={marker} />
}
