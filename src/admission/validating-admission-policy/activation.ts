import { isObject, type KubeObject } from '../../api/types.js';
import { type CelInput, celInputOfJson, celValueOfJson } from '../../cel/json-value.js';
import { AuthorizerValue, type CelAuthorizerBackend } from '../../cel/authorizer-library.js';
import { AdmissionRequestValue } from '../../cel/policy-compiler.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';
import type { CompiledPolicy } from './compiled-policy.js';
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

/**
 * The inputs of one request, each converted on first use and shared by every policy that reads it: a policy that
 * never names `oldObject` or `namespaceObject` does not pay for them (CompiledPolicy.inputs).
 */
export class RequestInputs {
  private readonly attributes: AdmissionAttributes;
  private readonly namespace: KubeObject | undefined;
  private readonly authorizerBackend: CelAuthorizerBackend | undefined;
  private objectInput: CelInput | undefined;
  private oldObjectInput: CelInput | undefined;
  private namespaceInput: unknown;
  private authorizerInput: AuthorizerValue | null | undefined;
  private readonly requests = new Map<string, AdmissionRequestValue>();

  constructor(attributes: AdmissionAttributes, namespace: KubeObject | undefined, authorizer?: CelAuthorizerBackend) {
    this.attributes = attributes;
    this.namespace = namespace;
    this.authorizerBackend = authorizer;
  }

  object(): CelInput {
    this.objectInput ??= this.attributes.object === undefined ? NONE : celInputOfJson(this.attributes.object);
    return this.objectInput;
  }

  oldObject(): CelInput {
    this.oldObjectInput ??= this.attributes.oldObject === undefined ? NONE : celInputOfJson(this.attributes.oldObject);
    return this.oldObjectInput;
  }

  /** `request` as seen through the version the policy matched. */
  request(matched: GroupVersionResource): AdmissionRequestValue {
    const key = `${matched.group}/${matched.version}/${matched.resource}`;
    let value = this.requests.get(key);
    if (value === undefined) {
      value = requestValue(this.attributes, matched);
      this.requests.set(key, value);
    }
    return value;
  }

  namespaceObject(): unknown {
    if (this.namespaceInput === undefined) {
      const { attributes } = this;
      const namespaced = attributes.namespace !== undefined && attributes.namespace !== '' && attributes.resource.plural !== 'namespaces';
      this.namespaceInput = namespaced && this.namespace !== undefined ? celValueOfJson(reducedNamespace(this.namespace)) : null;
    }
    return this.namespaceInput;
  }

  authorizer(): AuthorizerValue | null {
    if (this.authorizerInput === undefined) {
      const { attributes } = this;
      // authorizer.requestResource: the resource as requested, namespace and name included (R11.137).
      const requestResource = {
        group: attributes.resource.group,
        resource: attributes.resource.plural,
        subresource: attributes.subresource,
        namespace: attributes.namespace ?? '',
        name: attributes.name,
      };
      this.authorizerInput =
        this.authorizerBackend === undefined ? null : new AuthorizerValue(this.authorizerBackend, attributes.user, requestResource);
    }
    return this.authorizerInput;
  }
}

const NONE: CelInput = { value: null, largest: 0 };

/** One evaluation's activation: the inputs the policy names, with the param (or none). */
export function activationFor(
  inputs: RequestInputs,
  policy: CompiledPolicy,
  matched: GroupVersionResource,
  param: KubeObject | null,
): Activation {
  const uses = policy.inputs;
  const values: Record<string, unknown> = {};
  let largest = 0;
  if (uses.has('object')) {
    const object = inputs.object();
    values.object = object.value;
    largest = object.largest;
  }
  if (uses.has('oldObject')) {
    const oldObject = inputs.oldObject();
    values.oldObject = oldObject.value;
    largest = Math.max(largest, oldObject.largest);
  }
  if (uses.has('request')) values.request = inputs.request(matched);
  if (uses.has('namespaceObject')) values.namespaceObject = inputs.namespaceObject();
  if (uses.has('authorizer')) values.authorizer = inputs.authorizer();
  if (policy.paramKind !== undefined && uses.has('params')) {
    const params = param === null ? NONE : celInputOfJson(param);
    values.params = params.value;
    largest = Math.max(largest, params.largest);
  }
  return { values, largest };
}
