import './styles.css'

import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'

import { listenToAuthChanges } from './features/auth/api/auth-listener'
import { queryClient } from './lib/query-client'
import { createAdminRouter } from './router'

listenToAuthChanges(queryClient)

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
