import { StatusError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { createSharedInformer, type SharedInformer } from '../../cache/shared-informer.js';
import type { ApiClient, ResourceRef } from '../../client/interface.js';
import type { JSONSchemaProps } from '../../api/json-schema-props.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { BUILTIN_DEFINITIONS } from '../../kinds/definitions.js';
import { inlineDefinition } from '../../openapi/inline-schema.js';
import { type GroupVersionKind, typeCheckPolicy } from './type-checking.js';
import { createRateLimitedQueue, type RateLimitedQueue } from '../../workqueue/rate-limited-queue.js';
import { type ItemResult, runWorker } from '../../workqueue/worker.js';

const POLICIES: ResourceRef = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' };

const generationOf = (p: KubeObject): number => (typeof p.metadata.generation === 'number' ? p.metadata.generation : 0);
const observedOf = (p: KubeObject): unknown => (isObject(p.status) ? p.status.observedGeneration : undefined);

/**
 * kube-controller-manager's validatingadmissionpolicy-status controller (R11.174): for each policy generation it
 * has not seen, it type-checks the expressions against the matched kinds' schemas (type-checking.ts) and writes
 * `status.observedGeneration` with `status.typeChecking`, replacing the previous warnings as its apply does.
 * Schemas come from the built-in kinds' OpenAPI definitions; custom resources are not checked (no schema source).
 */
export class ValidatingAdmissionPolicyStatusController {
  private readonly client: ApiClient;
  private readonly policies: SharedInformer;
  private readonly queue: RateLimitedQueue<string> = createRateLimitedQueue<string>();
  private readonly log: (message: string) => void;
  private worker: Promise<void> | undefined;

  constructor(client: ApiClient, log: (message: string) => void = () => {}) {
    this.client = client;
    this.log = log;
    this.policies = createSharedInformer(client, POLICIES, undefined);
    const enqueue = (p: KubeObject): void => {
      if (observedOf(p) !== generationOf(p)) this.queue.add(p.metadata.name ?? '');
    };
    this.policies.addEventHandler({ onAdd: enqueue, onUpdate: (_old, p) => enqueue(p) });
  }

  async start(): Promise<void> {
    this.policies.start();
    await this.policies.whenSynced();
    this.worker = runWorker(
      this.queue,
      (name) => this.sync(name),
      (name, err) => this.log(`validatingadmissionpolicy-status-controller: ${name}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  /** Writes the observed generation of one policy; a conflict waits for the newer object's event. */
  async sync(name: string): Promise<ItemResult | undefined> {
    const policy = this.policies.store.get(undefined, name);
    if (policy === undefined || observedOf(policy) === generationOf(policy)) return undefined;
    const status = isObject(policy.status) ? policy.status : {};
    const resources = await this.client.discover();
    const warnings = typeCheckPolicy(policy, { resources, schemaOf: (gvk) => this.schemaOf(resources, gvk) });
    const typeChecking = warnings.length === 0 ? {} : { expressionWarnings: warnings };
    try {
      await this.client.update(
        POLICIES,
        undefined,
        { ...policy, status: { ...status, observedGeneration: generationOf(policy), typeChecking } },
        'status',
      );
    } catch (err) {
      if (err instanceof StatusError && (err.code === 409 || err.code === 404)) return undefined;
      throw err;
    }
    return undefined;
  }

  private readonly schemas = new Map<string, JSONSchemaProps | undefined>();

  /** A built-in kind's schema with its references inlined, made once per definition. */
  private schemaOf(resources: readonly ResourceInfo[], gvk: GroupVersionKind): JSONSchemaProps | undefined {
    const info = resources.find((r) => r.group === gvk.group && r.version === gvk.version && r.kind === gvk.kind && r.custom !== true);
    if (info === undefined) return undefined;
    if (!this.schemas.has(info.definition)) this.schemas.set(info.definition, inlineDefinition(BUILTIN_DEFINITIONS, info.definition));
    return this.schemas.get(info.definition);
  }

  async stop(): Promise<void> {
    await this.policies.stop();
    this.queue.shutDown();
    await this.worker;
  }
}
