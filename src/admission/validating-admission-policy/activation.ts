import { isObject, type KubeObject } from '../../api/types.js';
import { largestCollection } from '../../cel/cost.js';
import { celValueOfJson } from '../../cel/json-value.js';
import { AuthorizerValue, type CelAuthorizerBackend } from '../../cel/authorizer-library.js';
import { AdmissionRequestValue } from '../../cel/policy-compiler.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';
import type { Activation } from './evaluation.js';
import type { GroupVersionResource } from './matching.js';

/**
 * The CEL variables of a policy evaluation (R11.162, R11.163): `object`/`oldObject` (null when absent), the typed
 * `request` and `authorizer`, `params` (null without one), `namespaceObject` reduced to the fields Kubernetes exposes.
 */

const NAMESPACE_METADATA = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'finalizers',
] as const;

function reducedNamespace(ns: KubeObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const key of NAMESPACE_METADATA) if (ns.metadata[key] !== undefined) metadata[key] = ns.metadata[key];
  const out: Record<string, unknown> = { metadata };
  if (isObject(ns.spec)) out.spec = ns.spec;
  if (isObject(ns.status)) out.status = ns.status;
  return out;
}

function stringMap(entries: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(entries));
}

/** `request`: kind and resource of the version the policy matched, requestKind/requestResource as sent. */
function requestValue(attributes: AdmissionAttributes, matched: GroupVersionResource): AdmissionRequestValue {
  const { kind, resource } = attributes;
  const user = attributes.user;
  const extra = new Map(Object.entries(user?.extra ?? {}).map(([k, v]) => [k, [...v]]));
  const values: Record<string, unknown> = {
    kind: stringMap({ group: kind.group, version: matched.version, kind: kind.kind }),
    resource: stringMap({ group: matched.group, version: matched.version, resource: matched.resource }),
    subResource: attributes.subresource,
    requestKind: stringMap({ group: kind.group, version: kind.version, kind: kind.kind }),
    requestResource: stringMap({ group: resource.group, version: resource.version, resource: resource.plural }),
    requestSubResource: attributes.subresource,
    name: attributes.name,
    namespace: attributes.namespace ?? '',
    operation: attributes.operation,
    userInfo: new Map<string, unknown>([
      ['username', user?.name ?? ''],
      ['uid', user?.uid ?? ''],
      ['groups', [...(user?.groups ?? [])]],
      ['extra', extra],
    ]),
    dryRun: attributes.dryRun,
    options: celValueOfJson(attributes.options),
  };
  return Object.assign(new AdmissionRequestValue(), values);
}

/** The inputs of the evaluations of one request against one policy; params are added per binding and param. */
export interface RequestInputs {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly request: AdmissionRequestValue;
  readonly namespaceObject: unknown;
  readonly authorizer: AuthorizerValue | null;
  readonly largest: number;
}

export function requestInputs(
  attributes: AdmissionAttributes,
  matched: GroupVersionResource,
  namespace: KubeObject | undefined,
  authorizer?: CelAuthorizerBackend,
): RequestInputs {
  const { resource } = attributes;
  // authorizer.requestResource: the resource as requested, namespace and name included (R11.137).
  const requestResource = {
    group: resource.group,
    resource: resource.plural,
    subresource: attributes.subresource,
    namespace: attributes.namespace ?? '',
    name: attributes.name,
  };
  const namespaced = attributes.namespace !== undefined && attributes.namespace !== '' && attributes.resource.plural !== 'namespaces';
  return {
    object: attributes.object === undefined ? null : celValueOfJson(attributes.object),
    oldObject: attributes.oldObject === undefined ? null : celValueOfJson(attributes.oldObject),
    request: requestValue(attributes, matched),
    namespaceObject: namespaced && namespace !== undefined ? celValueOfJson(reducedNamespace(namespace)) : null,
    authorizer: authorizer === undefined ? null : new AuthorizerValue(authorizer, attributes.user, requestResource),
    largest: Math.max(largestCollection(attributes.object), largestCollection(attributes.oldObject)),
  };
}

/** One evaluation's activation: the request's inputs with the param (or none). */
export function activationFor(inputs: RequestInputs, hasParams: boolean, param: KubeObject | null): Activation {
  const values: Record<string, unknown> = {
    object: inputs.object,
    oldObject: inputs.oldObject,
    request: inputs.request,
    namespaceObject: inputs.namespaceObject,
    authorizer: inputs.authorizer,
  };
  if (hasParams) values.params = param === null ? null : celValueOfJson(param);
  return { values, largest: Math.max(inputs.largest, param === null ? 0 : largestCollection(param)) };
}
