import { notFound, type StatusError } from '../../api/errors.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';
import type { ValidatingAdmissionPlugin } from '../../registry/admission/plugin.js';
import { activationFor, RequestInputs } from './activation.js';
import { celAuthorizerBackend } from './authorizer-backend.js';
import { type CompiledPolicy, compilePolicy } from './compiled-policy.js';
import { denialError, denialText, warningText } from './denial.js';
import { type Decision, evaluatePolicy } from './evaluation.js';
import { addAuditAnnotation } from '../../audit/context.js';
import { type GroupVersionResource, type MatchRequest, matchResources } from './matching.js';
import { ConfigurationError, ParamSource } from './params.js';

/**
 * The ValidatingAdmissionPolicy plugin (R11.154–R11.172), in the validating phase after the in-tree plugins. It
 * reads policies, bindings and params through informers and compiles each policy once per generation; every
 * matching (policy, binding, param) is evaluated, policies by name then bindings by name (R11.172), and the first
 * denial collected fails the request after all were evaluated.
 */

const GROUP = 'admissionregistration.k8s.io';
export const VALIDATING_ADMISSION_POLICIES: ResourceRef = { group: GROUP, version: 'v1', resource: 'validatingadmissionpolicies' };
export const VALIDATING_ADMISSION_POLICY_BINDINGS: ResourceRef = {
  group: GROUP,
  version: 'v1',
  resource: 'validatingadmissionpolicybindings',
};

/** R11.35: requests policies never see. */
const EXEMPT = new Set([
  `${GROUP}/validatingadmissionpolicies`,
  `${GROUP}/validatingadmissionpolicybindings`,
  `${GROUP}/mutatingadmissionpolicies`,
  `${GROUP}/mutatingadmissionpolicybindings`,
  'authentication.k8s.io/tokenreviews',
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
]);

export interface ValidatingAdmissionPolicyOptions {
  /** The server's own client: the informers read with it. */
  readonly client: ApiClient;
  readonly resources: () => readonly ResourceInfo[];
  /** Namespaces as the server's namespace informer holds them, and a live read for names it lacks. */
  readonly namespace: { cached(name: string): KubeObject | undefined; live(name: string): Promise<KubeObject | undefined> };
  /** The server's authorizer, for the CEL `authorizer` (R11.137). */
  readonly authorizer: () => Authorizer;
  readonly onError: (err: unknown) => void;
}

export interface ValidatingAdmissionPolicyPlugin extends ValidatingAdmissionPlugin {
  /** Starts the policy and binding informers and resolves once both hold the stored objects. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const VALIDATION_FAILURE = 'validation.policy.admission.k8s.io/validation_failure';

/** The value of the validation_failure audit annotation: a one-element JSON list, as Kubernetes writes it. */
function validationFailure(policy: string, binding: string, decision: Decision, actions: readonly unknown[]): string {
  const entry = { message: decision.message, policy, binding, expressionIndex: decision.expressionIndex, validationActions: actions };
  return JSON.stringify([entry]);
}

interface BoundPolicy {
  readonly policy: KubeObject;
  readonly bindings: readonly KubeObject[];
}

const byName = (a: KubeObject, b: KubeObject): number => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);

export function validatingAdmissionPolicy(options: ValidatingAdmissionPolicyOptions): ValidatingAdmissionPolicyPlugin {
  const informerOptions = { onError: options.onError };
  const policies: SharedInformer = createSharedInformer(options.client, VALIDATING_ADMISSION_POLICIES, undefined, informerOptions);
  const bindings: SharedInformer = createSharedInformer(options.client, VALIDATING_ADMISSION_POLICY_BINDINGS, undefined, informerOptions);
  const params = new ParamSource({ client: options.client, resources: options.resources, onError: options.onError });
  const compiled = new Map<string, CompiledPolicy>();
  const authorizer = celAuthorizerBackend(options.authorizer);

  /** The policy compiled for its current generation (R11.166: never per request). */
  const compiledFor = (policy: KubeObject): CompiledPolicy => {
    const key = policy.metadata.uid ?? policy.metadata.name ?? '';
    const generation = typeof policy.metadata.generation === 'number' ? policy.metadata.generation : 0;
    let c = compiled.get(key);
    if (c === undefined || c.generation !== generation) {
      c = compilePolicy(policy);
      compiled.set(key, c);
    }
    return c;
  };
  policies.addEventHandler({ onDelete: (p) => compiled.delete(p.metadata.uid ?? p.metadata.name ?? '') });

  /**
   * The bound policies in evaluation order with their bindings by name (R11.172), rebuilt only when either
   * informer has applied a change (each change moves its lastSyncResourceVersion), not per request.
   */
  let boundCache: { readonly key: string; readonly bound: readonly BoundPolicy[] } | undefined;
  const boundPolicies = (): readonly BoundPolicy[] => {
    const key = `${policies.lastSyncResourceVersion}/${bindings.lastSyncResourceVersion}`;
    if (boundCache?.key === key) return boundCache.bound;
    const byPolicy = new Map<string, KubeObject[]>();
    for (const b of bindings.store.list().sort(byName)) {
      const name = isObject(b.spec) && typeof b.spec.policyName === 'string' ? b.spec.policyName : '';
      const list = byPolicy.get(name);
      if (list === undefined) byPolicy.set(name, [b]);
      else list.push(b);
    }
    const bound: BoundPolicy[] = [];
    for (const policy of policies.store.list().sort(byName)) {
      const policyBindings = byPolicy.get(policy.metadata.name ?? '');
      if (policyBindings !== undefined) bound.push({ policy, bindings: policyBindings });
    }
    boundCache = { key, bound };
    return bound;
  };

  const equivalentsOf = (info: ResourceInfo): GroupVersionResource[] =>
    options
      .resources()
      .filter((r) => r.group === info.group && r.plural === info.plural && r.version !== info.version)
      .map((r) => ({ group: r.group, version: r.version, resource: r.plural }));

  async function validate(attributes: AdmissionAttributes): Promise<void> {
    // The server's own writes are never refused (attributes.ts); policies never see their own kinds (R11.35).
    if (attributes.user === undefined || EXEMPT.has(`${attributes.resource.group}/${attributes.resource.plural}`)) return;
    const bound = boundPolicies();
    if (bound.length === 0) return;
    const namespace = attributes.namespace ?? '';
    const namespaced = namespace !== '' && attributes.resource.plural !== 'namespaces';
    let namespaceObject: KubeObject | undefined;
    if (namespaced) namespaceObject = options.namespace.cached(namespace) ?? (await options.namespace.live(namespace));
    const request: MatchRequest = {
      operation: attributes.operation,
      resource: { group: attributes.resource.group, version: attributes.resource.version, resource: attributes.resource.plural },
      subresource: attributes.subresource,
      namespace,
      name: attributes.name,
      object: attributes.object,
      oldObject: attributes.oldObject,
      equivalents: () => equivalentsOf(attributes.resource),
      namespaceLabels: (name) => {
        if (namespaceObject === undefined) throw notFound({ group: '', resource: 'namespaces' }, name);
        return (namespaceObject.metadata.labels ?? {}) as Record<string, string>;
      },
    };
    const denials: StatusError[] = [];
    const inputs = new RequestInputs(attributes, namespaceObject, authorizer);
    // A policy's auditAnnotations over all its bindings and params: distinct values of a key are joined.
    const annotationValues = new Map<string, string[]>();
    const collectAnnotation = (key: string, value: string): void => {
      const values = annotationValues.get(key);
      if (values === undefined) annotationValues.set(key, [value]);
      else if (!values.includes(value)) values.push(value);
    };
    const publishAnnotations = (policyName: string): void => {
      for (const [key, values] of annotationValues) addAuditAnnotation(`${policyName}/${key}`, values.join(', '));
      annotationValues.clear();
    };
    for (const { policy, bindings: policyBindings } of bound) {
      const c = compiledFor(policy);
      const matched = matchResources(c.matchConstraints, request);
      if (matched === undefined) continue;
      for (const binding of policyBindings) {
        const spec = isObject(binding.spec) ? binding.spec : {};
        if (isObject(spec.matchResources) && matchResources(spec.matchResources, request, true) === undefined) continue;
        const bindingName = binding.metadata.name ?? '';
        let paramObjects: (KubeObject | null)[] = [null];
        if (c.paramKind !== undefined && isObject(spec.paramRef)) {
          try {
            paramObjects = await params.paramsFor(c.paramKind, spec.paramRef, namespace);
          } catch (err) {
            if (!(err instanceof ConfigurationError)) throw err;
            // R11.161: under Fail a configuration error denies whatever the validationActions say.
            if (c.failurePolicy === 'Fail') {
              const text = err.policyLevel
                ? denialText(c.name, undefined, `failed to configure policy: ${err.message}`)
                : denialText(c.name, bindingName, `failed to configure binding: ${err.message}`);
              denials.push(denialError(attributes, text, 'Invalid'));
            }
            continue;
          }
        }
        const actions = Array.isArray(spec.validationActions) ? spec.validationActions : [];
        for (const param of paramObjects) {
          for (const decision of evaluatePolicy(c, activationFor(inputs, c, matched, param), collectAnnotation)) {
            if (decision.auditAnnotation === true) {
              denials.push(denialError(attributes, denialText(c.name, bindingName, decision.message), decision.reason));
              continue;
            }
            if (actions.includes('Deny'))
              denials.push(denialError(attributes, denialText(c.name, bindingName, decision.message), decision.reason));
            if (actions.includes('Audit'))
              addAuditAnnotation(VALIDATION_FAILURE, validationFailure(c.name, bindingName, decision, actions));
            if (actions.includes('Warn')) attributes.warnings?.push(warningText(c.name, bindingName, decision.message));
          }
        }
      }
      publishAnnotations(c.name);
    }
    const first = denials[0];
    if (first !== undefined) throw first;
  }

  return {
    name: 'ValidatingAdmissionPolicy',
    handles: () => true,
    validate,
    async start() {
      policies.start();
      bindings.start();
      await Promise.all([policies.whenSynced(), bindings.whenSynced()]);
    },
    async stop() {
      await Promise.all([policies.stop(), bindings.stop(), params.stop()]);
    },
  };
}
