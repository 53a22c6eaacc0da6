/**
 * Streams records out of a CSV, JSON array or NDJSON file, each with the line it came from (CSV and NDJSON: the
 * file line, header = line 1; JSON array: the element's 1-based position), and reports bytes read for progress.
 */
import { parse } from 'csv-parse';
import fs from 'node:fs';
import readline from 'node:readline';

export interface SourceLine {
  line: number;
  record: Record<string, unknown>;
}

export type FileFormat = 'csv' | 'json' | 'ndjson';

/** Detects the format from the extension, sniffing .json files for a leading `[` (array) or `{` (NDJSON). */
export function detectFormat(file: string): FileFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  if (lower.endsWith('.json')) {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(256);
      const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
      const first = buffer.subarray(0, read).toString('utf8').replace(/^\uFEFF/, '').trimStart()[0];
      return first === '[' ? 'json' : 'ndjson';
    } finally {
      fs.closeSync(fd);
    }
  }
  return 'csv';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Yields the file's records. `onBytes` receives the running byte count (CSV and NDJSON).
 * @throws Error for malformed JSON or a CSV row whose column count differs from the header's.
 */
export async function* readRecords(file: string, onBytes?: (bytes: number) => void): AsyncGenerator<SourceLine> {
  const format = detectFormat(file);
  if (format === 'json') {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    if (!Array.isArray(parsed)) throw new Error(`${file}: a .json file must hold an array of records (or be NDJSON)`);
    for (const [index, record] of parsed.entries()) {
      if (!isRecord(record)) throw new Error(`${file}: element ${index + 1} is not an object`);
      yield { line: index + 1, record };
    }
    return;
  }
  const stream = fs.createReadStream(file);
  let bytes = 0;
  if (onBytes) stream.on('data', (chunk) => onBytes((bytes += chunk.length)));
  if (format === 'ndjson') {
    let line = 0;
    for await (const text of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
      line += 1;
      if (text.trim() === '') continue;
      const record: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
      if (!isRecord(record)) throw new Error(`${file}:${line}: not a JSON object`);
      yield { line, record };
    }
    return;
  }
  const parser = stream.pipe(parse({ columns: true, bom: true, skip_empty_lines: true, info: true }));
  for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    yield { line: info.lines, record };
  }
}
