import { notAcceptable } from '../api/errors.js';

/** What the client asked the response to be, from its Accept header. */
export interface ResponseFormat {
  readonly encoding: 'json' | 'yaml';
  /** Server-side transformation: Table (kubectl get) or partial metadata (metadata informers). */
  readonly as: 'object' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim());
      const p: Record<string, string> = {};
      for (const kv of params) {
        const eq = kv.indexOf('=');
        if (eq > 0) p[kv.slice(0, eq).toLowerCase()] = kv.slice(eq + 1);
      }
      return { type: type.toLowerCase(), params: p };
    })
    .filter((m) => m.type !== '');
}

const TRANSFORMS = new Set(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

/** The first acceptable media range wins, as in the apiserver's negotiation. Protobuf is not offered. */
export function negotiate(accept: string | undefined): ResponseFormat {
  if (accept === undefined || accept.trim() === '') return { encoding: 'json', as: 'object' };
  for (const m of parseAccept(accept)) {
    const encoding =
      m.type === 'application/json' || m.type === '*/*' || m.type === 'application/*'
        ? 'json'
        : m.type === 'application/yaml'
          ? 'yaml'
          : undefined;
    if (encoding === undefined) continue;
    const as = m.params.as;
    if (as === undefined) return { encoding, as: 'object' };
    if (TRANSFORMS.has(as) && m.params.g === 'meta.k8s.io' && (m.params.v === 'v1' || m.params.v === 'v1beta1')) {
      return { encoding, as: as as ResponseFormat['as'] };
    }
  }
  throw notAcceptable(
    `only the following media types are accepted: application/json, application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io`,
  );
}
