import type { ResourceInfo, Verb } from '../api/resource-info.js';
import {
  ANY,
  META,
  type OperationSpec,
  okResponses,
  patchContentTypes,
  type PathSpec,
  PRODUCES,
  PRODUCES_STREAM,
  STATUS_DEFINITION,
} from './operation-spec.js';
import {
  DELETE_COLLECTION_PARAMETERS,
  DELETE_PARAMETERS,
  LIST_PARAMETERS,
  nameParam,
  P,
  PATCH_PARAMETERS,
  sortParameters,
  WRITE_PARAMETERS,
} from './parameters.js';
import { type ResourceNaming, resourceNaming, resourceOperation } from './resource-naming.js';
import { podLogPath } from './pod-log-path.js';
import { subresourcePath } from './subresource-paths.js';
import { watchPaths } from './watch-paths.js';

/** Kinds whose DELETE answers with the deleted object rather than a Status. */
const DELETE_RETURNS_OBJECT: ReadonlySet<string> = new Set([
  'io.k8s.api.core.v1.Pod',
  'io.k8s.api.core.v1.Service',
  'io.k8s.api.core.v1.PersistentVolume',
  'io.k8s.api.core.v1.PersistentVolumeClaim',
]);

/** Paths and operations of one resource, its watch paths and its subresources. */
export function resourcePaths(resource: ResourceInfo): PathSpec[] {
  const naming = resourceNaming(resource);
  const paths: PathSpec[] = [];
  const collection = collectionOperations(naming);
  if (collection.length > 0) {
    paths.push({
      path: naming.collection,
      parameters: sortParameters([...naming.nsParams, P.pretty]),
      operations: collection,
    });
  }
  const item = itemOperations(naming);
  if (item.length > 0) {
    paths.push({
      path: naming.item,
      parameters: sortParameters([nameParam(resource.kind), ...naming.nsParams, P.pretty]),
      operations: item,
    });
  }
  if (resource.namespaced && has(resource, 'list')) paths.push(allNamespacesListPath(naming));
  if (has(resource, 'watch')) paths.push(...watchPaths(naming));
  for (const sub of resource.subresources) {
    // pods/log answers text with its own query parameters, not an object.
    paths.push(
      sub.name === 'log' && resource.group === '' && resource.plural === 'pods' ? podLogPath(naming) : subresourcePath(naming, sub),
    );
  }
  return paths;
}

const has = (resource: ResourceInfo, verb: Verb): boolean => resource.verbs.includes(verb);

function collectionOperations(naming: ResourceNaming): OperationSpec[] {
  const { resource, id, scoped } = naming;
  const { kind, definition } = resource;
  const operations: OperationSpec[] = [];
  if (has(resource, 'list')) {
    operations.push(
      resourceOperation(naming, {
        method: 'get',
        operationId: `list${id}${scoped}${kind}`,
        description: `list or watch objects of kind ${kind}`,
        action: 'list',
        parameters: sortParameters(LIST_PARAMETERS),
        consumes: ANY,
        produces: PRODUCES_STREAM,
        responses: okResponses(`${definition}List`),
      }),
    );
  }
  if (has(resource, 'create')) {
    operations.push(
      resourceOperation(naming, {
        method: 'post',
        operationId: `create${id}${scoped}${kind}`,
        description: `create ${article(kind)} ${kind}`,
        action: 'post',
        parameters: sortParameters(WRITE_PARAMETERS),
        body: { definition, required: true },
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(definition, ['201', 'Created'], ['202', 'Accepted']),
      }),
    );
  }
  if (has(resource, 'deletecollection')) {
    operations.push(
      resourceOperation(naming, {
        method: 'delete',
        operationId: `delete${id}Collection${scoped}${kind}`,
        description: `delete collection of ${kind}`,
        action: 'deletecollection',
        parameters: sortParameters(DELETE_COLLECTION_PARAMETERS),
        body: { definition: `${META}DeleteOptions`, required: false },
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(STATUS_DEFINITION),
      }),
    );
  }
  return operations;
}

function itemOperations(naming: ResourceNaming): OperationSpec[] {
  const { resource, id, scoped } = naming;
  const { kind, definition } = resource;
  const operations: OperationSpec[] = [];
  if (has(resource, 'get')) {
    operations.push(
      resourceOperation(naming, {
        method: 'get',
        operationId: `read${id}${scoped}${kind}`,
        description: `read the specified ${kind}`,
        action: 'get',
        parameters: [],
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(definition),
      }),
    );
  }
  if (has(resource, 'update')) {
    operations.push(
      resourceOperation(naming, {
        method: 'put',
        operationId: `replace${id}${scoped}${kind}`,
        description: `replace the specified ${kind}`,
        action: 'put',
        parameters: sortParameters(WRITE_PARAMETERS),
        body: { definition, required: true },
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(definition, ['201', 'Created']),
      }),
    );
  }
  if (has(resource, 'patch')) {
    operations.push(
      resourceOperation(naming, {
        method: 'patch',
        operationId: `patch${id}${scoped}${kind}`,
        description: `partially update the specified ${kind}`,
        action: 'patch',
        parameters: sortParameters(PATCH_PARAMETERS),
        body: { definition: `${META}Patch`, required: true },
        consumes: patchContentTypes(naming.resource),
        produces: PRODUCES,
        responses: okResponses(definition, ['201', 'Created']),
      }),
    );
  }
  if (has(resource, 'delete')) {
    const deleted = DELETE_RETURNS_OBJECT.has(definition) ? definition : STATUS_DEFINITION;
    operations.push(
      resourceOperation(naming, {
        method: 'delete',
        operationId: `delete${id}${scoped}${kind}`,
        description: `delete ${article(kind)} ${kind}`,
        action: 'delete',
        parameters: sortParameters(DELETE_PARAMETERS),
        body: { definition: `${META}DeleteOptions`, required: false },
        consumes: ANY,
        produces: PRODUCES,
        responses: okResponses(deleted, ['202', 'Accepted']),
      }),
    );
  }
  return operations;
}

/** "/api/v1/pods": the list of a namespaced kind across all namespaces. */
function allNamespacesListPath(naming: ResourceNaming): PathSpec {
  const { resource, id } = naming;
  return {
    path: `${naming.prefix}/${resource.plural}`,
    parameters: sortParameters([...LIST_PARAMETERS, P.pretty]),
    operations: [
      resourceOperation(naming, {
        method: 'get',
        operationId: `list${id}${resource.kind}ForAllNamespaces`,
        description: `list or watch objects of kind ${resource.kind}`,
        action: 'list',
        parameters: [],
        consumes: ANY,
        produces: PRODUCES_STREAM,
        responses: okResponses(`${resource.definition}List`),
      }),
    ],
  };
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}
