import './styles.css'

import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'

import { queryClient } from './lib/query-client'
import { createAdminRouter } from './router'

// Loaded beside the first page rather than before it: the Supabase client is not part of the up-front bundle, and
// GoTrue replays the current session (INITIAL_SESSION) to a listener that subscribes late.
void import('./features/auth/api/auth-listener').then(({ listenToAuthChanges }) => listenToAuthChanges(queryClient))

const router = createAdminRouter(queryClient)

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('admin/index.html has no #root element')

createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
)
