/** The display formatters live with the rules the site, the PDF report and the functions share. */
export * from '@shared/format.ts'
