import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { AuthSignOutButton } from './auth-sign-out-button'

export function AuthNotAuthorized({ email }: { email: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <Card className="w-full max-w-md space-y-4">
        <div>
          <CardTitle>Not authorized</CardTitle>
          <CardDescription>
            You are signed in as <strong className="text-slate-800">{email}</strong>, which does not have admin access.
          </CardDescription>
        </div>
        <AuthSignOutButton />
      </Card>
    </main>
  )
}
