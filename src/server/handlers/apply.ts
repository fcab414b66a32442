import { badRequest, StatusError } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { forbidden } from '../../auth/authn/forbidden.js';
import type { ResourceAttributes } from '../../auth/authorizer.js';
import type { ResourceRequest } from '../api-context.js';
import { type ParsedBody, parseBodyWithStrictErrors, readBody } from '../body.js';
import { send, warningHeaders } from '../respond.js';
import { applyObject } from './apply-object.js';
import { decodeObjectBody, fieldValidationMode } from './decode-input.js';
import { applyManager } from './field-manager-options.js';
import { renderObject } from './transform.js';

/**
 * R10.20: an apply that creates needs `create` as well as the `patch` the request was authorized for, asked once the
 * object is built (Kubernetes checks it in the create's validation), with the refusal a create would get.
 */
function authorizeApplyCreate(r: ResourceRequest, name: string): void {
  const info = r.store.info;
  const attributes: ResourceAttributes = {
    user: r.user,
    resourceRequest: true,
    verb: 'create',
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.plural,
    subresource: '',
    namespace: r.namespace ?? '',
    name,
  };
  const decision = r.ctx.authorizer.authorize(attributes);
  if (decision.decision !== 'allow') throw forbidden(attributes, decision.reason);
}

/** The body as YAML (JSON included); a parse failure is R10.3's 400. */
export async function parseApplyBody(body: Buffer): Promise<ParsedBody> {
  const text = body.toString('utf8').trimStart();
  try {
    // JSON is YAML; kubectl and client libraries send JSON, which needs no trip to the YAML worker.
    if (text.startsWith('{')) return await parseBodyWithStrictErrors(body, 'application/json');
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
  }
  try {
    return await parseBodyWithStrictErrors(body, 'application/yaml');
  } catch (err) {
    if (err instanceof StatusError && err.code === 400)
      throw badRequest(`error decoding YAML: error converting YAML to JSON: ${err.message}`);
    throw err;
  }
}

/** PATCH with application/apply-patch+yaml (R10.1–R10.27): the request's options and body, then applyObject. */
export async function handleApply(r: ResourceRequest, name: string, dryRun: boolean): Promise<void> {
  const manager = applyManager(r);
  const force = r.query.bool('force');
  const validation = fieldValidationMode(r);
  const parsed = await parseApplyBody(await readBody(r.req));
  const target = {
    store: r.store,
    namespace: r.namespace,
    subresource: r.subresource,
    user: r.user,
    decode: (object: Record<string, unknown>, warnings: string[]) => decodeObjectBody(r, object, warnings),
    authorizeCreate: (objectName: string) => authorizeApplyCreate(r, objectName),
  };
  const config = isObject(parsed.value) ? parsed.value : {};
  const result = await applyObject(target, name, { manager, force, dryRun, config, strictErrors: parsed.strictErrors, validation });
  send(r.res, r.format, result.code, renderObject(r, result.object), warningHeaders(result.warnings));
}
