import { badRequest } from '../../api/errors.js';
import type { KubeList, KubeObject } from '../../api/types.js';
import { parseIncludeObject, tableFor } from '../../tables/table-for.js';
import type { IncludeObject } from '../../tables/table-types.js';
import type { ResourceRequest } from '../api-context.js';
import { printerFor } from '../../kinds/printers.js';
import type { Printer } from '../../tables/printer.js';

function includeObject(r: ResourceRequest): IncludeObject {
  try {
    return parseIncludeObject(r.query.string('includeObject'));
  } catch (err) {
    throw badRequest((err as Error).message);
  }
}

/** A custom resource's printer columns, else the built-in kind's printer (or the default convertor). */
const printerOf = (r: ResourceRequest): Printer => r.store.strategy.printer ?? printerFor(r.store.info.kind, r.store.info.group);

function partialMetadata(obj: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** The response body for one object in the format the client negotiated. */
export function renderObject(r: ResourceRequest, obj: KubeObject, noHeaders = false): unknown {
  switch (r.format.as) {
    case 'Table':
      return tableFor({
        objects: [obj],
        printer: printerOf(r),
        includeObject: includeObject(r),
        now: r.ctx.clock(),
        listMeta: { resourceVersion: obj.metadata.resourceVersion },
        noHeaders,
      });
    case 'PartialObjectMetadata':
      return partialMetadata(obj);
    case 'PartialObjectMetadataList':
      throw badRequest(PARTIAL_LIST_ONLY);
    default:
      return obj;
  }
}

const PARTIAL_LIST_ONLY = 'PartialObjectMetadataList is only supported for list requests';

/**
 * Refuses, before the request acts, an answer format it cannot be given: a list form for an answer that is one
 * object, or a Table with an includeObject it does not know. Found only while answering, such a refusal would
 * come after a write had already landed.
 */
export function assertRenderable(r: ResourceRequest, answersWithList: boolean): void {
  if (r.format.as === 'PartialObjectMetadataList' && !answersWithList) throw badRequest(PARTIAL_LIST_ONLY);
  if (r.format.as === 'Table') includeObject(r);
}

export function renderList(r: ResourceRequest, list: KubeList): unknown {
  switch (r.format.as) {
    case 'Table':
      return tableFor({
        objects: list.items,
        printer: printerOf(r),
        includeObject: includeObject(r),
        now: r.ctx.clock(),
        listMeta: list.metadata,
      });
    case 'PartialObjectMetadataList':
    case 'PartialObjectMetadata':
      return {
        kind: 'PartialObjectMetadataList',
        apiVersion: 'meta.k8s.io/v1',
        metadata: list.metadata,
        items: list.items.map(partialMetadata),
      };
    default:
      return list;
  }
}
