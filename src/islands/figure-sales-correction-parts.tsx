import type { FigureSale } from '@shared/figures-contract.ts'
import { signedInAccessToken } from '~/lib/account-session'
import type { SaleCorrection } from '~/lib/agent-profile'
import { correctSaleUrl, fetchSaleCorrections, isAgentOwner } from '~/lib/sale-corrections'
import { SaleCorrectionMarkers } from './agent-claim-parts'

/**
 * The claim parts of /figure-sales, loaded after the sales (a separate chunk, so the page's first JavaScript stays
 * within its budget): the accepted corrections of the agent's sales and whether the signed-in visitor is the agent
 * who claimed the profile. A failed read of the corrections leaves the rows unmarked (logged); a failed owner check
 * means no "Correct this sale" links.
 */
export async function loadSaleCorrections(
  agentId: string,
): Promise<{ corrections: readonly SaleCorrection[]; owner: boolean }> {
  const [corrections, owner] = await Promise.all([
    fetchSaleCorrections(agentId).catch((error: unknown) => {
      console.error('Loading the corrections of the sales failed', error)
      return [] as SaleCorrection[]
    }),
    signedInAccessToken()
      .then((token) => (token ? isAgentOwner(agentId, token) : false))
      .catch(() => false),
  ])
  return { corrections, owner }
}

/**
 * A sale row's marks: the markers of the accepted corrections that changed it, as on the profile ("Side corrected:
 * buyer side", "Price or date corrected: $610,000", ...), and, for the owner, "Correct this sale", which opens the
 * corrections form filled in with the sale.
 */
export function SaleRowMarks({
  sale,
  corrections,
  owner,
}: {
  sale: FigureSale
  corrections: readonly SaleCorrection[]
  owner: boolean
}) {
  return (
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
}
