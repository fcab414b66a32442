import { StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import { applyJsonMergePatch } from './json-merge-patch.js';
import { applyJsonPatch } from './json-patch.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { type Definitions, definitionRef } from '../openapi/schema.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const PATCH_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** 415 listing the patch types the resource accepts (custom resources take no strategic merge patch). */
function unsupportedPatch(custom: boolean): StatusError {
  const accepted = custom
    ? 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'
    : 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml';
  return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted}`);
}

export function patchTypeOf(contentType: string | undefined): PatchType {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const patchType = PATCH_TYPES[type];
  if (patchType === undefined) throw unsupportedPatch(false);
  return patchType;
}

/** Applies a patch document to the current object; custom resources have no strategic merge metadata. */
export function applyPatch(type: PatchType, current: unknown, patch: unknown, info: ResourceInfo, definitions: Definitions): unknown {
  switch (type) {
    case 'json':
      return applyJsonPatch(current, patch);
    case 'merge':
      return applyJsonMergePatch(current, patch);
    case 'strategic':
      if (info.custom === true) throw unsupportedPatch(true);
      return applyStrategicMergePatch(current, patch, definitionRef(info.definition), definitions);
    case 'apply':
      // Server-side apply needs the field manager (server/handlers/apply.ts); it is no document transformation.
      throw unsupportedPatch(info.custom === true);
  }
}
