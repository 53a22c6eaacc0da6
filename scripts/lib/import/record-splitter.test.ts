import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createRecordSplitter, type OversizeRecord } from './record-splitter.ts'

/** Runs `chunks` through a splitter with a `cap`-byte cap; returns what it passed on and the records it dropped. */
async function split(chunks: string[], cap: number) {
  const oversize: OversizeRecord[] = []
  const splitter = createRecordSplitter({
    maxRecordBytes: cap,
    onOversize: (record) => oversize.push(record),
    headerTooLong: () => new Error('header too long'),
  })
  const out: Buffer[] = []
  for await (const chunk of Readable.from(chunks.map((text) => Buffer.from(text))).pipe(splitter))
    out.push(chunk as Buffer)
  return { text: Buffer.concat(out).toString('utf8'), oversize }
}

describe('record splitter', () => {
  it('passes records within the cap through byte for byte, whatever the chunking', async () => {
    const input = 'a,b\n1,"x\ny"\r\n2,"say ""hi"""\n3,4'
    for (const size of [1, 2, 3, 5, 64]) {
      const chunks = input.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!
      expect(await split(chunks, 16)).toEqual({ text: input, oversize: [] })
    }
  })

  it('replaces a record over the cap by its line ends and reports the line it starts on and its size', async () => {
    const long = `5,"${'z'.repeat(30)}\n${'z'.repeat(10)}"`
    const input = `a,b\n1,2\n${long}\n3,4\n`
    for (const size of [1, 7, 1000]) {
      const chunks = input.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!
      expect(await split(chunks, 20)).toEqual({
        text: 'a,b\n1,2\n\n\n3,4\n',
        oversize: [{ line: 3, bytes: Buffer.byteLength(long) }],
      })
    }
  })

  it('keeps CR LF line ends of a dropped record, and reports one at the end of a file without a final line end', async () => {
    expect(await split(['a,b\r\n', `1,${'q'.repeat(40)}\r\n2,3\r\n4,${'w'.repeat(25)}`], 20)).toEqual({
      text: 'a,b\r\n\r\n2,3\r\n',
      oversize: [
        { line: 2, bytes: 42 },
        { line: 4, bytes: 27 },
      ],
    })
  })

  it('fails when the header itself is over the cap', async () => {
    await expect(split(['x'.repeat(50)], 20)).rejects.toThrow('header too long')
  })
})
