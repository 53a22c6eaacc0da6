/**
 * The latest metrics refresh (public.figures_refreshes, anyone reads): the data date (data_date, the latest close
 * date in the data), the window, the sources and the methodology version of the figures the site shows. Read once per
 * build for the pages that state it without figures of one agent (results, compare, methodology).
 */
import type { FiguresRefresh } from '@shared/figures-contract.ts'
import { supabase } from './supabase'

let refreshPromise: Promise<FiguresRefresh | null> | undefined

/** @returns null before the first refresh. @throws when the read fails (the build must not ship a wrong date). */
export function loadLatestRefresh(): Promise<FiguresRefresh | null> {
  refreshPromise ??= (async () => {
    const { data, error } = await supabase
      .from('figures_refreshes')
      .select('*')
      .order('refreshed_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(1)
      .maybeSingle()
    if (error) throw new Error(`Could not load the latest figures refresh: ${error.message}`)
    return data
  })()
  return refreshPromise
}
