/** Text of a PDF for assertions, extracted with Mozilla's pdf.js (the legacy build runs in Node). */
import { createRequire } from 'node:module'
import path from 'node:path'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

// the standard 14 fonts' metrics, so pdf.js reads Helvetica text without a warning
const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`

/** Every text item of every page, items joined by spaces and pages by newlines. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({
    data: bytes,
    useSystemFonts: false,
    isEvalSupported: false,
    standardFontDataUrl,
  }).promise
  const parts: string[] = []
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent()
    parts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
  }
  await document.destroy()
  return parts.join('\n')
}
