import type { ReactNode } from 'react'

/** A centred full-page message for the states before the admin shell can render. */
export function AuthStatusScreen({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 text-slate-600">
      <div className="w-full max-w-md text-center">{children}</div>
    </main>
  )
}
