/**
 * Go's encoding/csv reader as kube-apiserver configures it for --token-auth-file: comma-separated, a variable
 * number of fields per record, strict quoting, no comments, no trimming. Startup errors must read exactly as
 * kube-apiserver's do, so positions are Go's (1-based line, 1-based byte column).
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

const BARE_QUOTE = 'bare " in non-quoted-field';
const MISPLACED_QUOTE = 'extraneous or missing " in quoted-field';

/** csv.ParseError: where a record went wrong. */
export class CsvParseError extends Error {
  readonly startLine: number;
  readonly line: number;
  readonly column: number;

  constructor(startLine: number, line: number, column: number, problem: string) {
    const where = startLine === line ? '' : `record on line ${startLine}; `;
    super(`${where}parse error on line ${line}, column ${column}: ${problem}`);
    this.name = 'CsvParseError';
    this.startLine = startLine;
    this.line = line;
    this.column = column;
  }
}

/** Hands out the input one line at a time, newline included, with \r\n folded to \n as Go's reader does. */
class LineReader {
  private readonly data: Buffer;
  private offset = 0;
  lineNumber = 0;

  constructor(data: Buffer) {
    this.data = data;
  }

  /** The next line, or undefined at end of input. */
  next(): Buffer | undefined {
    if (this.offset >= this.data.length) return undefined;
    const end = this.data.indexOf(NEWLINE, this.offset);
    let line: Buffer;
    if (end < 0) {
      line = this.data.subarray(this.offset);
      this.offset = this.data.length;
      if (line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    } else {
      line = this.data.subarray(this.offset, end + 1);
      this.offset = end + 1;
    }
    this.lineNumber++;
    const n = line.length;
    if (n >= 2 && line[n - 2] === CARRIAGE_RETURN && line[n - 1] === NEWLINE) {
      line = Buffer.concat([line.subarray(0, n - 2), Buffer.from([NEWLINE])]);
    }
    return line;
  }
}

function newlineLength(line: Buffer): number {
  return line.length > 0 && line[line.length - 1] === NEWLINE ? 1 : 0;
}

function readRecord(lines: LineReader): string[] | undefined {
  let line: Buffer | undefined;
  for (;;) {
    line = lines.next();
    if (line === undefined) return undefined;
    if (line.length !== newlineLength(line)) break;
  }

  const startLine = lines.lineNumber;
  const fields: string[] = [];
  let pos = { line: startLine, column: 1 };

  for (;;) {
    if (line.length === 0 || line[0] !== QUOTE) {
      const comma = line.indexOf(COMMA);
      const field = comma >= 0 ? line.subarray(0, comma) : line.subarray(0, line.length - newlineLength(line));
      const quote = field.indexOf(QUOTE);
      if (quote >= 0) throw new CsvParseError(startLine, lines.lineNumber, pos.column + quote, BARE_QUOTE);
      fields.push(field.toString('utf8'));
      if (comma < 0) return fields;
      line = line.subarray(comma + 1);
      pos = { line: pos.line, column: pos.column + comma + 1 };
      continue;
    }

    line = line.subarray(1);
    pos = { line: pos.line, column: pos.column + 1 };
    const value: Buffer[] = [];
    for (;;) {
      const quote = line.indexOf(QUOTE);
      if (quote >= 0) {
        value.push(line.subarray(0, quote));
        line = line.subarray(quote + 1);
        pos = { line: pos.line, column: pos.column + quote + 1 };
        const following = line[0];
        if (following === QUOTE) {
          value.push(Buffer.from([QUOTE]));
          line = line.subarray(1);
          pos = { line: pos.line, column: pos.column + 1 };
        } else if (following === COMMA) {
          line = line.subarray(1);
          pos = { line: pos.line, column: pos.column + 1 };
          fields.push(Buffer.concat(value).toString('utf8'));
          break;
        } else if (newlineLength(line) === line.length) {
          fields.push(Buffer.concat(value).toString('utf8'));
          return fields;
        } else {
          throw new CsvParseError(startLine, lines.lineNumber, pos.column - 1, MISPLACED_QUOTE);
        }
      } else if (line.length > 0) {
        // A quoted field may span lines: keep the newline and carry on with the next line.
        value.push(line);
        pos = { line: pos.line, column: pos.column + line.length };
        const nextLine = lines.next();
        line = nextLine ?? Buffer.alloc(0);
        if (line.length > 0) pos = { line: pos.line + 1, column: 1 };
      } else {
        throw new CsvParseError(startLine, pos.line, pos.column, MISPLACED_QUOTE);
      }
    }
  }
}

/** Every record of the input, blank lines skipped; throws CsvParseError on malformed quoting. */
export function readGoCsv(text: string): string[][] {
  const lines = new LineReader(Buffer.from(text, 'utf8'));
  const records: string[][] = [];
  for (let record = readRecord(lines); record !== undefined; record = readRecord(lines)) records.push(record);
  return records;
}
