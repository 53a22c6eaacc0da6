import { useQuery } from '@tanstack/react-query'

import { aiProviderQueries } from '../api/content-queries'

/** One line saying which writer the content functions use (built-in or provider · model). */
export function ContentProviderNote() {
  const status = useQuery(aiProviderQueries.status())
  return (
    <p className="text-sm text-slate-600" data-testid="ai-provider">
      <span className="font-medium text-slate-800">Writer: </span>
      {status.isPending && 'checking…'}
      {status.isError && `unknown (${status.error.message})`}
      {status.isSuccess && status.data.label}
    </p>
  )
}
