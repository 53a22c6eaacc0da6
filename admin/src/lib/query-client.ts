import { QueryClient } from '@tanstack/react-query'

/** The one QueryClient of the admin app; created at module level so it survives re-renders. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: 1,
    },
  },
})
