/**
 * CSV cells that a spreadsheet would run as a formula (OWASP "CSV injection"): one rule for every CSV the product
 * writes (the CRM export, the sales behind a figure). No imports.
 */

/** Always a formula: '=' and '@' (Excel's implicit intersection), and a leading tab or carriage return. */
const ALWAYS_FORMULA = /^[=@\t\r]/
/**
 * '+' or '-' starts a formula only when something other than a number follows: '+1 (512) 555-0100' and '-2.5' are
 * data, '+HYPERLINK(...)' and '-A1' are formulas.
 */
const SIGNED_FORMULA = /^[+-](?![\d\s().,/+-]*$)/

/**
 * Prefixes a cell that a spreadsheet would run as a formula with an apostrophe, leaving phone numbers and signed
 * numbers as they are.
 */
export function neutralizeFormula(value: string): string {
  return ALWAYS_FORMULA.test(value) || SIGNED_FORMULA.test(value) ? `'${value}` : value
}
