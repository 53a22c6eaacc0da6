import { z } from 'zod'

/**
 * The calendar's URL state: `?month=yyyy-MM` (default: the current month) and the `day` (yyyy-MM-dd) whose posts
 * are listed in full after its '+N more' was chosen.
 */
export const CalendarSearchSchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional()
    .catch(undefined),
  day: z.iso.date().optional().catch(undefined),
})
export type CalendarSearch = z.infer<typeof CalendarSearchSchema>
