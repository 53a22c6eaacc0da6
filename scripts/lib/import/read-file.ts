/**
 * Streams records out of a CSV, JSON array or NDJSON file, strictly: each with the line it came from (CSV and NDJSON:
 * the file line, header = line 1; JSON array: the element's 1-based position), and reports bytes read for progress.
 *
 * Strictness (issue "data integrity", case 3):
 *   - non-text input (a NUL byte or invalid UTF-8 in the first 64 KiB) stops with "not a CSV/JSON file", echoing no
 *     bytes of it;
 *   - a CSV record or NDJSON line longer than `maxRecordBytes` (default 1 MiB, counted in bytes) is yielded as a
 *     `problem` with the line it starts on, and the records after it are read as usual (CSV: record-splitter.ts finds
 *     the record boundaries ahead of csv-parse, which cannot resynchronise after its own `max_record_size`); a header
 *     over the cap stops the read: the file is not a CSV file with a header row;
 *   - a CSV row with the wrong number of columns, an unclosed quote or an NDJSON line that is not a JSON object is
 *     yielded as a `problem` (a reject with its line), not thrown;
 *   - the last record is flagged `unterminated` when the file does not end with a line end, so the caller can refuse
 *     a record that may have been cut short.
 * The CSV delimiter is sniffed from the header line (`,` `;` tab `|`) unless given.
 */
import { parse, type CsvError } from 'csv-parse'
import { isUtf8 } from 'node:buffer'
import fs from 'node:fs'
import readline from 'node:readline'
import { pipeline } from 'node:stream'
import { createRecordSplitter, type OversizeRecord } from './record-splitter.ts'

export type SourceLine =
  /** `unterminated`: the last record of a file without a final line end; `endsQuoted`: that file ends with `"`. */
  | { line: number; record: Record<string, unknown>; unterminated: boolean; endsQuoted?: boolean; problem?: undefined }
  | { line: number; problem: string; record?: undefined }

export type FileFormat = 'csv' | 'json' | 'ndjson'

/** Default cap on one record: 1 MiB of text. */
export const defaultMaxRecordBytes = 1024 * 1024

/** Delimiters the sniffer considers, most common first (wins ties). */
export const csvDelimiters = [',', ';', '\t', '|'] as const

export interface ReadOptions {
  /** Running byte count, for a progress bar. */
  onBytes?: (bytes: number) => void
  /** CSV: called once with the header's column names and the delimiter used, before the first record. */
  onHeader?: (columns: string[], delimiter: string) => void
  /** CSV delimiter; sniffed from the header line when absent. */
  delimiter?: string
  /** Longest record accepted, in bytes (default 1 MiB); longer ones are yielded as problems. */
  maxRecordBytes?: number
}

/** A problem with the file as a whole; the message names the file and never contains its raw bytes. */
export class FileFormatError extends Error {
  override name = 'FileFormatError'
}

function head(file: string, bytes: number): Buffer {
  const fd = fs.openSync(file, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, bytes, 0))
  } finally {
    fs.closeSync(fd)
  }
}

/** The file's last byte, or null for an empty file. */
function lastByte(file: string): number | null {
  const size = fs.statSync(file).size
  if (size === 0) return null
  const fd = fs.openSync(file, 'r')
  try {
    const buffer = Buffer.alloc(1)
    fs.readSync(fd, buffer, 0, 1, size - 1)
    return buffer[0]!
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * @throws FileFormatError when the start of the file holds a NUL byte or is not UTF-8 (a ZIP, an Excel workbook, an
 * image, UTF-16): "<file>: not a CSV/JSON file (binary data at byte N)".
 */
export function assertTextFile(file: string): void {
  const sample = head(file, 64 * 1024)
  const nul = sample.indexOf(0)
  // a multi-byte character may be cut at the end of the sample: judge the bytes before its last 3
  const whole = sample.length === fs.statSync(file).size ? sample : sample.subarray(0, Math.max(0, sample.length - 3))
  if (nul >= 0 || !isUtf8(whole)) {
    throw new FileFormatError(
      `${file}: not a CSV/JSON file (binary data${nul >= 0 ? ` at byte ${nul}` : ': not UTF-8 text'}); nothing was imported`,
    )
  }
}

/** Detects the format from the extension, sniffing .json files for a leading `[` (array) or `{` (NDJSON). */
export function detectFormat(file: string): FileFormat {
  const lower = file.toLowerCase()
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson'
  if (lower.endsWith('.json')) {
    const first = head(file, 256)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart()[0]
    return first === '[' ? 'json' : 'ndjson'
  }
  return 'csv'
}

/**
 * The delimiter of a CSV file: the candidate that occurs most often outside quotes in the header line (ties and none
 * found: `,`).
 */
export function sniffDelimiter(file: string): string {
  const text = head(file, 64 * 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
  const counts = new Map<string, number>(csvDelimiters.map((d) => [d, 0]))
  let quoted = false
  for (const char of text) {
    if (char === '"') quoted = !quoted
    else if (!quoted && (char === '\n' || char === '\r')) break
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1)
  }
  let best: string = ','
  for (const [delimiter, n] of counts) if (n > counts.get(best)!) best = delimiter
  return best
}

/** The reject reason of a record over the cap (sizes in bytes). */
export function oversizeProblem(bytes: number, maxRecordBytes: number): string {
  return `the record is ${bytes.toLocaleString('en-US')} bytes long, over the ${maxRecordBytes.toLocaleString('en-US')}-byte record cap`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Yields the file's records (and per-record problems) in file order.
 * @throws FileFormatError for binary input, malformed JSON (array files) or a header over the size cap.
 */
export async function* readRecords(file: string, options: ReadOptions = {}): AsyncGenerator<SourceLine> {
  const maxRecordBytes = options.maxRecordBytes ?? defaultMaxRecordBytes
  assertTextFile(file)
  const format = detectFormat(file)
  if (format === 'json') {
    let parsed: unknown
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''))
    } catch (error) {
      throw new FileFormatError(
        `${file}: not valid JSON (${(error as Error).message}); a truncated file looks like this. Nothing was imported`,
        { cause: error },
      )
    }
    if (!Array.isArray(parsed))
      throw new FileFormatError(`${file}: a .json file must hold an array of records (or be NDJSON)`)
    for (const [index, record] of parsed.entries()) {
      if (!isRecord(record)) yield { line: index + 1, problem: 'not a JSON object' }
      else yield { line: index + 1, record, unterminated: false }
    }
    return
  }
  const last = lastByte(file)
  const terminated = last === null || last === 0x0a || last === 0x0d
  const stream = fs.createReadStream(file)
  let bytes = 0
  if (options.onBytes) {
    const onBytes = options.onBytes
    stream.on('data', (chunk) => onBytes((bytes += chunk.length)))
  }
  // the last record is held back one step, so it can be flagged when the file has no final line end
  let held: SourceLine | null = null

  if (format === 'ndjson') {
    let line = 0
    for await (const text of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
      line += 1
      if (text.trim() === '') continue
      let next: SourceLine
      // a UTF-16 code unit is at most 3 UTF-8 bytes: only long lines are measured
      const bytes = text.length * 3 > maxRecordBytes ? Buffer.byteLength(text) : 0
      if (bytes > maxRecordBytes) {
        next = { line, problem: oversizeProblem(bytes, maxRecordBytes) }
      } else {
        try {
          const record: unknown = JSON.parse(text.replace(/^\uFEFF/, ''))
          next = isRecord(record) ? { line, record, unterminated: false } : { line, problem: 'not a JSON object' }
        } catch {
          next = { line, problem: 'not valid JSON (the line may be cut short)' }
        }
      }
      if (held) yield held
      held = next
    }
    // a JSON object that parsed is complete even without a line end
    if (held) yield held
    return
  }

  const delimiter = options.delimiter ?? sniffDelimiter(file)
  const skipped: SourceLine[] = []
  let fatal: Error | null = null
  let headerSeen = false
  // records over the cap, found by the splitter ahead of the parser; yielded in line order among the records
  const oversize: SourceLine[] = []
  const splitter = createRecordSplitter({
    maxRecordBytes,
    onOversize: ({ line, bytes }: OversizeRecord) =>
      oversize.push({ line, problem: oversizeProblem(bytes, maxRecordBytes) }),
    headerTooLong: () =>
      new FileFormatError(
        `${file}: the first line is longer than the ${maxRecordBytes}-byte record cap: not a CSV file with a header row; nothing was imported`,
      ),
  })
  // the splitter's error (a header over the cap) reaches the loop below through the parser, which pipeline destroys
  // with it
  const parser = pipeline(
    stream,
    splitter,
    parse({
      bom: true,
      delimiter,
      skip_empty_lines: true,
      info: true,
      max_record_size: maxRecordBytes,
      skip_records_with_error: true,
      columns: (header: string[]) => {
        headerSeen = true
        // an error thrown here would surface as a parser error; keep the caller's own (e.g. a MappingError)
        try {
          options.onHeader?.(header, delimiter)
        } catch (error) {
          fatal ??= error as Error
        }
        return header
      },
      on_skip: (error: CsvError | undefined) => {
        if (!error) return
        const line = Number(error.lines ?? 0)
        if (error.code === 'CSV_MAX_RECORD_SIZE') {
          // not expected (the splitter keeps longer records away from the parser); if the two ever disagree on where a
          // record ends, stop rather than guess
          fatal ??= new FileFormatError(
            headerSeen
              ? `${file}:${line}: the record is longer than the ${maxRecordBytes}-character record cap; nothing was imported`
              : `${file}: the first line is longer than the ${maxRecordBytes}-character record cap: not a CSV file with a header row; nothing was imported`,
          )
        } else if (
          error.code === 'CSV_RECORD_INCONSISTENT_COLUMNS' ||
          error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
        ) {
          const found = /got (\d+)/.exec(error.message)?.[1]
          skipped.push({
            line,
            problem: `has ${found ?? 'a different number of'} columns, the header has ${/length is (\d+)/.exec(error.message)?.[1] ?? 'another number'}`,
          })
        } else if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
          skipped.push({ line, problem: 'a quoted field is not closed (the file may be cut short)' })
        } else {
          skipped.push({ line, problem: `not valid CSV (${error.code})` })
        }
      },
    }),
    () => {},
  )
  /** The problems found before `line`, in line order (all of them when `line` is absent). */
  const problemsBefore = (line = Infinity): SourceLine[] => {
    const due = [...skipped, ...oversize.filter((entry) => entry.line < line)].sort((a, b) => a.line - b.line)
    skipped.length = 0
    oversize.splice(0, oversize.length, ...oversize.filter((entry) => entry.line >= line))
    return due
  }
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>
    info: { lines: number }
  }>) {
    if (fatal) break
    if (skipped.length > 0 || oversize.length > 0) {
      for (const problem of problemsBefore(info.lines)) {
        if (held) yield held
        held = problem
      }
    }
    if (held) yield held
    held = { line: info.lines, record, unterminated: false }
  }
  if (fatal) {
    stream.destroy()
    throw fatal
  }
  const after = problemsBefore()
  if (held && held.record && !terminated && after.length === 0)
    held = { ...held, unterminated: true, endsQuoted: last === 0x22 }
  if (held) yield held
  yield* after
}
