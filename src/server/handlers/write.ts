import { badRequest } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBody, readBody } from '../body.js';
import { keepingWarnings, send, warningHeaders } from '../respond.js';
import { decodeObjectBody, readObjectBody } from './decode-input.js';
import { applyPatch, patchTypeOf } from '../../patch/apply.js';
import { renderObject } from './transform.js';
import { handleApply } from './apply.js';
import { refuseForce, updateManager } from './field-manager-options.js';

function dryRun(r: ResourceRequest): boolean {
  const values = r.query.dryRun();
  for (const v of values) {
    if (v !== 'All') throw badRequest(`Invalid dry run value: ${JSON.stringify(values)}; supported values: "All"`);
  }
  return values.length > 0;
}

export async function handleCreate(r: ResourceRequest): Promise<void> {
  const warnings: string[] = [];
  const obj = await readObjectBody(r, warnings);
  const fieldManager = updateManager(r, 'CreateOptions');
  const created = await keepingWarnings(warnings, () =>
    r.store.create(r.namespace, obj, { dryRun: dryRun(r), warnings, user: r.user, resultDisposable: true, fieldManager }),
  );
  send(r.res, r.format, 201, renderObject(r, created), warningHeaders(warnings));
}

/** checkName: an update or patch must leave the object named as the URL names it. */
function checkName(obj: KubeObject, name: string): void {
  const bodyName = obj.metadata.name;
  if (bodyName === undefined || bodyName === '') {
    throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  }
  if (bodyName !== name) throw badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
}

export async function handleUpdate(r: ResourceRequest, name: string): Promise<void> {
  const warnings: string[] = [];
  const fieldManager = updateManager(r, 'UpdateOptions');
  const obj = await readObjectBody(r, warnings);
  checkName(obj, name);
  const updated = await keepingWarnings(warnings, () =>
    r.store.update(r.namespace, name, obj, {
      fieldManager,
      dryRun: dryRun(r),
      subresource: r.subresource,
      warnings,
      user: r.user,
      resultDisposable: true,
    }),
  );
  send(r.res, r.format, 200, renderObject(r, updated), warningHeaders(warnings));
}

export async function handlePatch(r: ResourceRequest, name: string): Promise<void> {
  const contentType = r.req.headers['content-type'];
  const patchType = patchTypeOf(contentType);
  if (patchType === 'apply') return handleApply(r, name, dryRun(r));
  refuseForce(r);
  const fieldManager = updateManager(r, 'PatchOptions');
  const body = await readBody(r.req);
  const patch = await parseBody(body, 'application/json');
  const warnings: string[] = [];
  const opts = { dryRun: dryRun(r), subresource: r.subresource, warnings, user: r.user, resultDisposable: true, fieldManager };
  const updated = await keepingWarnings(warnings, () =>
    r.store.guaranteedUpdate(r.namespace, name, opts, (current) => {
      const patched = applyPatch(patchType, current, patch, r.store.info, r.ctx.definitions);
      const obj = decodeObjectBody(r, patched, warnings);
      checkName(obj, name);
      const rv = obj.metadata.resourceVersion;
      if (rv !== undefined && rv !== '' && rv !== current.metadata.resourceVersion) {
        throw r.store.conflictError(name);
      }
      return obj;
    }),
  );
  send(r.res, r.format, 200, renderObject(r, updated), warningHeaders(warnings));
}
