import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useSignOutMutation } from '../api/auth-mutations'

export function AuthSignOutButton() {
  const signOut = useSignOutMutation()
  return (
    <div className="space-y-2">
      <Button variant="outline" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        {signOut.isPending ? 'Signing out...' : 'Sign Out'}
      </Button>
      {signOut.error && <Alert>Could not sign out: {signOut.error.message}</Alert>}
    </div>
  )
}
