import { badRequest } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { topLevelNumberLiteral } from '../../decoding/int64.js';
import { deleteOptionsFromBody } from '../../registry/delete-policy.js';
import type { DeleteOptions, PropagationPolicy } from '../../api/delete-options.js';
import type { ResourceRequest } from '../api-context.js';
import type { Query } from '../query.js';
import { parseBody, readBody } from '../body.js';
import { decodeKubernetesProtobuf, KUBERNETES_PROTOBUF_MEDIA_TYPE } from '../../protobuf/decode.js';
import { keepingWarnings, send, warningHeaders } from '../respond.js';
import { decodeListOptions } from './list-options.js';
import { renderList } from './transform.js';

const JOB_ORPHAN_WARNING =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

/** R2.2: a non-empty body is the DeleteOptions and the query is ignored; otherwise the query carries them. */
async function deleteOptions(r: ResourceRequest): Promise<DeleteOptions> {
  const body = await readBody(r.req);
  if (body.length > 0) {
    const contentType = r.req.headers['content-type'];
    // client-go's typed clients (kubectl drain among them) send DeleteOptions as protobuf.
    if (contentType?.split(';')[0]?.trim() === KUBERNETES_PROTOBUF_MEDIA_TYPE) {
      return deleteOptionsFromBody(decodeKubernetesProtobuf(body, r.ctx.definitions, { apiVersion: 'v1', kind: 'DeleteOptions' }));
    }
    const parsed = await parseBody(body, contentType);
    if (isObject(parsed) && parsed.kind !== undefined && parsed.kind !== 'DeleteOptions') {
      throw badRequest(`got unexpected object of kind ${String(parsed.kind)}, expected DeleteOptions`);
    }
    const text = body.toString('utf8');
    return deleteOptionsFromBody(parsed, (key) => topLevelNumberLiteral(text, key));
  }
  return deleteOptionsFromQuery(r.query);
}

/**
 * Convert_url_Values_To_v1_DeleteOptions: a present propagationPolicy counts even when empty (and then fails
 * validation), and `uid` / `resourceVersion` become preconditions.
 */
export function deleteOptionsFromQuery(q: Query): DeleteOptions {
  const opts: DeleteOptions = {};
  const grace = q.int('gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const orphan = q.optionalBool('orphanDependents');
  if (orphan !== undefined) opts.orphanDependents = orphan;
  const policy = q.string('propagationPolicy');
  if (policy !== undefined) opts.propagationPolicy = policy as PropagationPolicy;
  const dryRun = q.dryRun();
  if (dryRun.length > 0) opts.dryRun = dryRun;
  const uid = q.string('uid') ?? '';
  const resourceVersion = q.string('resourceVersion') ?? '';
  if (uid !== '' || resourceVersion !== '') {
    opts.preconditions = {};
    if (uid !== '') opts.preconditions.uid = uid;
    if (resourceVersion !== '') opts.preconditions.resourceVersion = resourceVersion;
  }
  return opts;
}

/** R2.9: Jobs orphan their pods by default, and the apiserver says so. */
function warnings(r: ResourceRequest, opts: DeleteOptions): string[] {
  const info = r.store.info;
  const jobs = info.group === 'batch' && info.plural === 'jobs';
  return jobs && opts.propagationPolicy === undefined && opts.orphanDependents === undefined ? [JOB_ORPHAN_WARNING] : [];
}

export async function handleDelete(r: ResourceRequest, name: string): Promise<void> {
  const opts = await deleteOptions(r);
  const admitted: string[] = [];
  const result = await keepingWarnings(admitted, () => r.store.delete(r.namespace, name, opts, { user: r.user, warnings: admitted }));
  send(r.res, r.format, result.code, result.body, warningHeaders([...warnings(r, opts), ...admitted]));
}

export async function handleDeleteCollection(r: ResourceRequest): Promise<void> {
  const listOpts = decodeListOptions(r.query, false);
  const opts = await deleteOptions(r);
  const admitted: string[] = [];
  const list = await keepingWarnings(admitted, () =>
    r.store.deleteCollection(r.namespace, listOpts, opts, { user: r.user, warnings: admitted }),
  );
  send(r.res, r.format, 200, renderList(r, list), warningHeaders([...warnings(r, opts), ...admitted]));
}
