import './styles.css'

import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'

import { App } from './app'
import { listenToAuthChanges } from './features/auth/api/auth-listener'
import { queryClient } from './lib/query-client'

listenToAuthChanges(queryClient)

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('admin/index.html has no #root element')

createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
)
