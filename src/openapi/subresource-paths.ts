import type { ResourceInfo, SubresourceInfo } from '../api/resource-info.js';
import { ANY, capitalize, META, type OperationSpec, okResponses, patchContentTypes, type PathSpec, PRODUCES } from './operation-spec.js';
import { nameParam, P, PATCH_PARAMETERS, sortParameters, WRITE_PARAMETERS } from './parameters.js';
import { type ResourceNaming, resourceOperation } from './resource-naming.js';

/** The path of one subresource ("/status", "/scale") with the operations its verbs allow. */
export function subresourcePath(naming: ResourceNaming, sub: SubresourceInfo): PathSpec {
  const { resource } = naming;
  const { group, version, kind } = resource;
  const gvk = { group: sub.group ?? group, version: sub.version ?? version, kind: sub.kind ?? kind };
  const definition = definitionOf(gvk.group, gvk.version, gvk.kind, resource);
  const id = `${naming.id}${naming.scoped}${kind}${capitalize(sub.name)}`;
  const op = (spec: Omit<OperationSpec, 'tag' | 'gvk'>): OperationSpec => resourceOperation(naming, spec, gvk);
  const operations: OperationSpec[] = [];
  if (sub.verbs.includes('get')) {
    operations.push(
      op({
        method: 'get',
        operationId: `read${id}`,
        description: `read ${sub.name} of the specified ${kind}`,
        action: 'get',
        parameters: [],
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(definition),
      }),
    );
  }
  if (sub.verbs.includes('create')) {
    operations.push(
      op({
        method: 'post',
        operationId: `create${id}`,
        description: `create ${sub.name} of a ${kind}`,
        action: 'post',
        parameters: sortParameters(WRITE_PARAMETERS),
        body: { definition, required: true },
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(definition, ['201', 'Created'], ['202', 'Accepted']),
      }),
    );
  }
  if (sub.verbs.includes('update')) {
    operations.push(
      op({
        method: 'put',
        operationId: `replace${id}`,
        description: `replace ${sub.name} of the specified ${kind}`,
        action: 'put',
        parameters: sortParameters(WRITE_PARAMETERS),
        body: { definition, required: true },
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(definition, ['201', 'Created']),
      }),
    );
  }
  if (sub.verbs.includes('patch')) {
    operations.push(
      op({
        method: 'patch',
        operationId: `patch${id}`,
        description: `partially update ${sub.name} of the specified ${kind}`,
        action: 'patch',
        parameters: sortParameters(PATCH_PARAMETERS),
        body: { definition: `${META}Patch`, required: true },
        consumes: patchContentTypes(naming.resource),
        produces: PRODUCES,
        responses: okResponses(definition, ['201', 'Created']),
      }),
    );
  }
  return {
    path: `${naming.item}/${sub.name}`,
    parameters: sortParameters([nameParam(gvk.kind), ...naming.nsParams, P.pretty]),
    operations,
  };
}

function definitionOf(group: string, version: string, kind: string, resource: ResourceInfo): string {
  if (kind === resource.kind && group === resource.group && version === resource.version) return resource.definition;
  // A subresource's own kind (autoscaling/v1 Scale) follows the standard naming of built-in API packages.
  return `io.k8s.api.${group === '' ? 'core' : group.replace(/\.k8s\.io$/, '').split('.')[0]}.${version}.${kind}`;
}
