import type { IncomingMessage } from 'node:http';
import { badRequest, type StatusError, unsupportedMediaType } from '../api/errors.js';
import { scanJson } from '../decoding/json-scan.js';
import { MAX_OBJECT_DEPTH } from '../decoding/nesting.js';
import { yamlWorker } from '../decoding/yaml-worker-client.js';
import { summarize } from '../protobuf/errors.js';
import { readLimitedBody } from './body-limit.js';

export { MAX_REQUEST_BODY_BYTES } from './body-limit.js';

/** The whole request body, at most `limitBytes` of it (limitedReadBody); past that, 413 (see body-limit.ts). */
export const readBody: (req: IncomingMessage, limitBytes?: number) => Promise<Buffer> = readLimitedBody;

/** A decoded body, with the strict decoding errors (duplicate fields) that fieldValidation reports or rejects. */
export interface ParsedBody {
  readonly value: unknown;
  /** `duplicate field "data.a"` (JSON) or go-yaml's `error converting YAML to JSON: yaml: unmarshal errors: ...`. */
  readonly strictErrors: readonly string[];
}

function mediaType(contentType: string | undefined): string {
  // Clients send exactly this on nearly every request.
  if (contentType === undefined || contentType === 'application/json') return 'application/json';
  return contentType.split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The transformDecodeError wording for a body that is not JSON or YAML at all; `expectedKind` names the type the
 * body was meant to be, and the body's first bytes are summarized after the error as the apiserver does.
 */
function unrecognized(detail: string, body: Buffer, expectedKind: string | undefined): StatusError {
  return badRequest(
    expectedKind === undefined
      ? detail
      : `the object provided is unrecognized (must be of type ${expectedKind}): ${detail} (${summarize(body)})`,
  );
}

/**
 * Parses a JSON or YAML (1.1, as kubectl's sigs.k8s.io/yaml reads it) body; any other media type is refused with
 * 415 (an empty Content-Type is JSON). Syntax errors become 400s worded as the apiserver words them. Nesting is
 * bounded before anything recursive sees the value (see nesting.ts).
 */
export async function parseBodyWithStrictErrors(body: Buffer, contentType: string | undefined, expectedKind?: string): Promise<ParsedBody> {
  const type = mediaType(contentType);
  if (type === 'application/json' || type === '') return parseJson(body.toString('utf8'), body, expectedKind, []);
  if (type === 'application/yaml') {
    const converted = await yamlWorker.convert(body.toString('utf8'));
    if ('error' in converted) throw unrecognized(`yaml: ${converted.error}`, body, expectedKind);
    const strict =
      converted.duplicateKeys.length === 0
        ? []
        : [`error converting YAML to JSON: yaml: unmarshal errors:\n  ${converted.duplicateKeys.join('\n  ')}`];
    return parseJson(converted.json, body, expectedKind, strict);
  }
  throw unsupportedMediaType();
}

/** parseBodyWithStrictErrors for bodies whose duplicate fields nothing reports (patches, DeleteOptions, Scale). */
export async function parseBody(body: Buffer, contentType: string | undefined, expectedKind?: string): Promise<unknown> {
  return (await parseBodyWithStrictErrors(body, contentType, expectedKind)).value;
}

function parseJson(text: string, body: Buffer, expectedKind: string | undefined, strictErrors: string[]): ParsedBody {
  const scan = scanJson(text, MAX_OBJECT_DEPTH);
  // Go's scanner stops at the bracket that goes too deep, whatever follows.
  if (scan.tooDeep !== undefined) {
    throw unrecognized(
      `couldn't get version/kind; json parse error: invalid character '${scan.tooDeep}' exceeded max depth`,
      body,
      expectedKind,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw unrecognized(`couldn't get version/kind; json parse error: ${goJsonError(err)}`, body, expectedKind);
  }
  return { value, strictErrors: scan.duplicates.length === 0 ? strictErrors : [...strictErrors, ...scan.duplicates] };
}

/** encoding/json's wording for the common syntax errors. */
function goJsonError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/end of JSON input/i.test(message)) return 'unexpected end of JSON input';
  const token = /Unexpected token '?(.)'?/.exec(message);
  if (token?.[1] !== undefined) return `invalid character '${token[1]}' looking for beginning of value`;
  return message.charAt(0).toLowerCase() + message.slice(1);
}
