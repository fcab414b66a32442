import { stringify } from 'yaml';
import { type OutputStream, UsageError } from './command-io.js';

export type OutputFormat = 'text' | 'json' | 'yaml';

/** -o: absent means the report for people. */
export function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === '') return 'text';
  if (value === 'json' || value === 'yaml') return value;
  throw new UsageError(`unable to match a printer suitable for the output format "${value}", allowed formats are: json,yaml`);
}

/** Writes the machine document, or the people's rendering of it. */
export function writeDocument<T>(out: OutputStream, format: OutputFormat, doc: T, render: (doc: T) => string): void {
  if (format === 'json') out.write(`${JSON.stringify(doc, null, 2)}\n`);
  else if (format === 'yaml') out.write(stringify(doc, { aliasDuplicateObjects: false }));
  else out.write(render(doc));
}
