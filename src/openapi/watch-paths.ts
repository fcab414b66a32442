import { ANY, type Action, META, type OperationSpec, okResponses, type PathSpec, PRODUCES_WATCH } from './operation-spec.js';
import { LIST_PARAMETERS, nameParam, P, sortParameters } from './parameters.js';
import { type ResourceNaming, resourceOperation } from './resource-naming.js';

/** The deprecated "/watch/" paths of a resource, which kube-apiserver still serves and documents. */
export function watchPaths(naming: ResourceNaming): PathSpec[] {
  const { resource, id, scoped, nsPath, nsParams } = naming;
  const { kind, plural } = resource;
  const prefix = `${naming.prefix}/watch`;
  const watchOp = (operationId: string, action: Action, description: string): OperationSpec =>
    resourceOperation(naming, {
      method: 'get',
      operationId,
      description,
      action,
      parameters: [],
      consumes: ANY,
      produces: PRODUCES_WATCH,
      responses: okResponses(`${META}WatchEvent`),
    });
  const deprecatedList = `watch individual changes to a list of ${kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
  const paths: PathSpec[] = [
    {
      path: `${prefix}${nsPath}/${plural}`,
      parameters: sortParameters([...LIST_PARAMETERS, ...nsParams, P.pretty]),
      operations: [watchOp(`watch${id}${scoped}${kind}List`, 'watchlist', deprecatedList)],
    },
    {
      path: `${prefix}${nsPath}/${plural}/{name}`,
      parameters: sortParameters([...LIST_PARAMETERS, nameParam(kind), ...nsParams, P.pretty]),
      operations: [
        watchOp(
          `watch${id}${scoped}${kind}`,
          'watch',
          `watch changes to an object of kind ${kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
        ),
      ],
    },
  ];
  if (resource.namespaced) {
    paths.push({
      path: `${prefix}/${plural}`,
      parameters: sortParameters([...LIST_PARAMETERS, P.pretty]),
      operations: [watchOp(`watch${id}${kind}ListForAllNamespaces`, 'watchlist', deprecatedList)],
    });
  }
  return paths;
}
