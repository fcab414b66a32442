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

function unsupportedPatch(contentType: string): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`,
    { causes: [{ reason: 'UnsupportedMediaType', message: contentType }] },
  );
}

export function patchTypeOf(contentType: string | undefined): PatchType {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const patchType = PATCH_TYPES[type];
  if (patchType === undefined || patchType === 'apply') throw unsupportedPatch(contentType ?? '');
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
      if (info.custom === true) throw unsupportedPatch('application/strategic-merge-patch+json');
      return applyStrategicMergePatch(current, patch, definitionRef(info.definition), definitions);
    case 'apply':
      throw unsupportedPatch('application/apply-patch+yaml');
  }
}
