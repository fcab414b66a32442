import type { IncomingMessage } from 'node:http';
import { parseAllDocuments } from 'yaml';
import { badRequest, requestEntityTooLarge, StatusError, unsupportedMediaType } from '../api/errors.js';

/** kube-apiserver's request body limit (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_REQUEST_BODY_BYTES) {
    req.resume();
    throw requestEntityTooLarge(MAX_REQUEST_BODY_BYTES);
  }
  // Plain events rather than the async iterator: this runs on every write request.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(requestEntityTooLarge(MAX_REQUEST_BODY_BYTES));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Parses a JSON or YAML (1.1, as kubectl's sigs.k8s.io/yaml reads it) body. */
export function parseBody(body: Buffer, contentType: string | undefined): unknown {
  const type = mediaType(contentType);
  const text = body.toString('utf8');
  if (type === 'application/yaml' || type === 'application/apply-patch+yaml') return parseYaml(text);
  if (type === 'application/json' || type.endsWith('+json') || type === '' || type === '*/*') return parseJson(text);
  throw unsupportedMediaType(contentType ?? '');
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`json: ${(err as Error).message}`);
  }
}

function parseYaml(text: string): unknown {
  const docs = parseAllDocuments(text, { version: '1.1' });
  if (!Array.isArray(docs)) throw badRequest('yaml: empty document');
  const first = docs[0];
  if (first === undefined) throw badRequest('yaml: empty document');
  if (docs.length > 1) throw badRequest('yaml: only one document is allowed in a request body');
  const error = first.errors[0];
  if (error !== undefined) throw badRequest(`yaml: ${error.message}`);
  return first.toJS({ maxAliasCount: 100 });
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}
