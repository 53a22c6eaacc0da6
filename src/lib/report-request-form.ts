/**
 * The Get Report form's client-side check. It mirrors the request-report function's schema
 * (supabase/functions/_shared/report-request.ts, which imports zod as `npm:zod@4` and so cannot be bundled here) with
 * the same messages; the function re-validates and its field errors are shown the same way.
 */
import { z } from 'zod'

export const ReportRequestFormSchema = z.object({
  full_name: z.string().trim().min(1, { error: 'Please enter your full name' }).max(200, { error: 'Name must be 200 characters or fewer' }),
  email: z.string().trim().max(320, { error: 'Email must be 320 characters or fewer' }).pipe(z.email({ error: 'Please enter a valid email address' })),
  phone: z
    .string()
    .trim()
    .refine((value) => value === '' || /^[+()\d\s.-]{7,40}$/.test(value), { error: 'Please enter a valid phone number' }),
  property_address: z.string().trim().max(300, { error: 'Property address must be 300 characters or fewer' }),
})

export type ReportRequestForm = z.infer<typeof ReportRequestFormSchema>

/** Field name → first message, as the function's 400 body `{errors}` has it. */
export type FieldErrors = Partial<Record<keyof ReportRequestForm | string, string>>

/** Validates the typed values; returns the cleaned values or the field errors. */
export function checkReportRequestForm(values: ReportRequestForm): { data: ReportRequestForm } | { errors: FieldErrors } {
  const parsed = ReportRequestFormSchema.safeParse(values)
  if (parsed.success) return { data: parsed.data }
  const errors: FieldErrors = {}
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message
  return { errors }
}
