/**
 * The local administrator: a confirmed GoTrue user (created through the auth admin API with the service-role key,
 * so the password is hashed the way the auth service hashes it and no confirmation email is needed) listed in
 * public.user_roles with role 'admin'.
 */
import pg from 'pg'

/**
 * Creates the account when missing and makes sure it is an admin. Idempotent.
 * @returns 'created' or 'existing'.
 * @throws Error with the auth service's message when sign-up fails.
 */
export async function ensureAdminAccount(options: {
  apiUrl: string
  serviceRoleKey: string
  databaseUrl: string
  email: string
  password: string
}): Promise<'created' | 'existing'> {
  const client = new pg.Client({ connectionString: options.databaseUrl })
  await client.connect()
  try {
    let found = await client.query<{ id: string }>('select id from auth.users where lower(email) = lower($1)', [
      options.email,
    ])
    let outcome: 'created' | 'existing' = 'existing'
    if (found.rowCount === 0) {
      const response = await fetch(`${options.apiUrl}/auth/v1/admin/users`, {
        method: 'POST',
        headers: {
          apikey: options.serviceRoleKey,
          Authorization: `Bearer ${options.serviceRoleKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          email: options.email,
          password: options.password,
          email_confirm: true,
          user_metadata: { full_name: 'Local Admin' },
        }),
      })
      if (!response.ok)
        throw new Error(`Could not create the local admin account: ${response.status} ${await response.text()}`)
      found = await client.query<{ id: string }>('select id from auth.users where lower(email) = lower($1)', [
        options.email,
      ])
      outcome = 'created'
    }
    await client.query(`insert into public.user_roles (user_id, role) values ($1, 'admin') on conflict do nothing`, [
      found.rows[0]!.id,
    ])
    return outcome
  } finally {
    await client.end()
  }
}
