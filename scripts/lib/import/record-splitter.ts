/**
 * A byte-level Transform that sits in front of csv-parse and keeps one over-long record from stopping a whole import
 * (issue "data integrity", case 3: "a record over a size cap (default 1 MB) is rejected with its line number").
 *
 * csv-parse's own `max_record_size` throws and cannot find the next record boundary after it, so this splitter finds
 * the boundaries itself, quote-aware the way RFC 4180 reads them (a `"` toggles quoting, so an escaped `""` leaves it
 * unchanged; a CR or LF outside quotes ends the record), measures each record in bytes, and:
 *   - passes records up to `maxRecordBytes` through byte for byte;
 *   - replaces a longer record by its own line ends only (CR and LF bytes, in the file's style), which csv-parse
 *     (`skip_empty_lines`) skips while still counting the lines, so every later record keeps its true line number; the
 *     record is reported through `onOversize` with the line it starts on and its size;
 *   - fails with FileFormatError when the FIRST record (the header) is over the cap: without a header there is no CSV
 *     to read.
 * It holds at most one record (up to the cap) in memory; the rest of an over-long record is counted and dropped.
 */
import { Transform, type TransformCallback } from 'node:stream'

/** An over-long record: the file line it starts on (header = 1) and its length in bytes (line end excluded). */
export interface OversizeRecord {
  line: number
  bytes: number
}

export interface RecordSplitterOptions {
  /** Longest record passed on, in bytes (line end excluded). */
  maxRecordBytes: number
  /** Called for each record over the cap, in file order, before any later record is passed on. */
  onOversize: (record: OversizeRecord) => void
  /** The error for a header over the cap (the caller names the file). */
  headerTooLong: () => Error
}

const QUOTE = 0x22
const LF = 0x0a
const CR = 0x0d

/** Creates the splitter; see the module comment. */
export function createRecordSplitter(options: RecordSplitterOptions): Transform {
  const { maxRecordBytes, onOversize, headerTooLong } = options
  let quoted = false
  let line = 1 // the line the current record starts on
  let lineNow = 1 // the line the scanner is on
  let recordBytes = 0 // bytes of the current record so far, line ends between records excluded
  let pending: Buffer[] = [] // the current record's bytes not yet passed on (only while it is within the cap)
  let dropping = false // the current record went over the cap: count it, pass on its line ends only
  let lineEnds: number[] = [] // the line-end bytes inside a dropped record
  let previous = -1 // the byte before the current one (CR LF is one line end)
  let header = true

  const endOversize = (push: (chunk: Buffer) => void) => {
    onOversize({ line, bytes: recordBytes })
    if (lineEnds.length > 0) push(Buffer.from(lineEnds))
    dropping = false
    lineEnds = []
  }

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const out: Buffer[] = []
      // chunk[passFrom, recordStart) holds whole records still to pass on; the current record starts at recordStart
      // (0 when it began in an earlier chunk: its first bytes are in `pending`)
      let passFrom = 0
      let recordStart = 0
      for (let i = 0; i < chunk.length; i += 1) {
        const byte = chunk[i]!
        if (byte === QUOTE) {
          quoted = !quoted
        } else if (byte === LF || byte === CR) {
          // CR LF is one line end
          if (!(byte === LF && previous === CR)) lineNow += 1
          previous = byte
          if (quoted) {
            // a line end inside a quoted field belongs to the record
            if (dropping) lineEnds.push(byte)
          } else {
            // outside quotes it ends the record (the LF of a CR LF ends an empty one)
            if (dropping) {
              endOversize((bytes) => out.push(bytes))
              out.push(chunk.subarray(i, i + 1))
              passFrom = i + 1
            } else if (pending.length > 0) {
              out.push(...pending)
              pending = []
            }
            recordStart = i + 1
            if (recordBytes > 0) header = false
            recordBytes = 0
            line = lineNow
            continue
          }
        }
        previous = byte
        recordBytes += 1
        if (!dropping && recordBytes > maxRecordBytes) {
          if (header) {
            callback(headerTooLong())
            return
          }
          // over the cap: pass on the whole records before it, forget it, keep only the line ends seen inside it
          if (recordStart > passFrom) out.push(chunk.subarray(passFrom, recordStart))
          for (const part of [...pending, chunk.subarray(recordStart, i + 1)])
            for (const b of part) if (b === LF || b === CR) lineEnds.push(b)
          pending = []
          dropping = true
        }
        if (dropping) passFrom = i + 1
      }
      if (!dropping) {
        if (recordStart > passFrom) out.push(chunk.subarray(passFrom, recordStart))
        if (recordStart < chunk.length) pending.push(Buffer.from(chunk.subarray(recordStart)))
      }
      for (const part of out) this.push(part)
      callback()
    },
    flush(callback: TransformCallback) {
      // the file ends inside a record (no final line end): pass it on, or report it when it was over the cap
      if (dropping) endOversize((b) => this.push(b))
      else for (const part of pending) this.push(part)
      callback()
    },
  })
}
