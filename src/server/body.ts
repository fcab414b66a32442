import type { IncomingMessage } from 'node:http';
import { parseAllDocuments } from 'yaml';
import { badRequest, requestEntityTooLarge, StatusError, unsupportedMediaType } from '../api/errors.js';

/** kube-apiserver's request body limit (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/**
 * 413, with `Connection: close`: like Go's server after a handler gave up on a body it had not read to the end, the
 * connection is not reused, so nothing more of an oversized body is taken in once the answer is out.
 */
function tooLarge(limitBytes: number): StatusError {
  const err = requestEntityTooLarge(limitBytes);
  return new StatusError(err.code, err.reason, err.message, err.details, { Connection: 'close' });
}

/**
 * The whole request body, at most `limitBytes` of it (limitedReadBody): a larger one — declared by Content-Length
 * or found while streaming — is refused with 413 `Request entity too large: limit is <n>`, and no more of it is kept.
 */
export async function readBody(req: IncomingMessage, limitBytes: number = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limitBytes) {
    req.resume();
    throw tooLarge(limitBytes);
  }
  // Plain events rather than the async iterator: this runs on every write request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) {
        req.off('data', onData);
        chunks.length = 0;
        // Discarded rather than paused, so the client can finish sending and read the 413.
        req.resume();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function mediaType(contentType: string | undefined): string {
  // Clients send exactly this on nearly every request.
  if (contentType === undefined || contentType === 'application/json') return 'application/json';
  return contentType.split(';')[0]?.trim().toLowerCase() ?? '';
}

function unrecognized(detail: string, expectedKind: string | undefined): StatusError {
  return badRequest(
    expectedKind === undefined ? detail : `the object provided is unrecognized (must be of type ${expectedKind}): ${detail}`,
  );
}

/**
 * Parses a JSON or YAML (1.1, as kubectl's sigs.k8s.io/yaml reads it) body. Syntax errors become 400s worded as
 * the apiserver words them; `expectedKind` names the type the body was meant to be.
 */
export function parseBody(body: Buffer, contentType: string | undefined, expectedKind?: string): unknown {
  const type = mediaType(contentType);
  const text = body.toString('utf8');
  if (type === 'application/yaml' || type === 'application/apply-patch+yaml') {
    const parsed = parseYaml(text);
    if (parsed.error !== undefined) throw unrecognized(`error converting YAML to JSON: yaml: ${parsed.error}`, expectedKind);
    return parsed.value;
  }
  if (type === 'application/json' || type.endsWith('+json') || type === '' || type === '*/*') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw unrecognized(`couldn't get version/kind; json parse error: ${goJsonError(err)}`, expectedKind);
    }
  }
  throw unsupportedMediaType(contentType ?? '');
}

/** encoding/json's wording for the common syntax errors. */
function goJsonError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/end of JSON input/i.test(message)) return 'unexpected end of JSON input';
  const token = /Unexpected token '?(.)'?/.exec(message);
  if (token?.[1] !== undefined) return `invalid character '${token[1]}' looking for beginning of value`;
  return message.charAt(0).toLowerCase() + message.slice(1);
}

function parseYaml(text: string): { value?: unknown; error?: string } {
  const docs = parseAllDocuments(text, { version: '1.1' });
  if (!Array.isArray(docs) || docs.length === 0) return { value: null };
  const first = docs[0];
  if (first === undefined) return { value: null };
  const error = first.errors[0];
  if (error !== undefined) return { error: error.message.split('\n')[0] ?? error.message };
  return { value: first.toJS({ maxAliasCount: 100 }) };
}
