import type { ResourceInfo } from '../../api/resource-info.js';
import type { KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE';

/**
 * What every admission plugin is told about a write (k8s.io/apiserver admission.Attributes). One record per
 * request, handed to the mutating plugins and then the validating ones; only `object` may be changed, and only by
 * mutating plugins.
 */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  /** The kind of the object, as the resource serves it. */
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly resource: ResourceInfo;
  /** "" for the resource itself; "status", "finalize", … for writes through a subresource. */
  readonly subresource: string;
  /** Undefined for cluster-scoped resources. */
  readonly namespace: string | undefined;
  readonly name: string;
  /** The object being written; undefined for DELETE. */
  readonly object: KubeObject | undefined;
  /** The stored object an UPDATE replaces or a DELETE removes; undefined for CREATE. */
  readonly oldObject: KubeObject | undefined;
  /** Who asks; undefined when the server writes for itself (its loopback client), which plugins never refuse. */
  readonly user: UserInfo | undefined;
  readonly dryRun: boolean;
  /** The request's CreateOptions, UpdateOptions or DeleteOptions, as the client sent them. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Where plugins add warnings for the client (webhooks' `warnings`); the HTTP layer sends them as Warning headers. */
  readonly warnings: string[];
}

export interface AttributesInput {
  readonly operation: AdmissionOperation;
  readonly resource: ResourceInfo;
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly subresource?: string;
  readonly user?: UserInfo;
  readonly dryRun?: boolean;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly warnings?: string[];
  /**
   * The request's name when it is not the object's (R11.63): empty for a generateName create, whose name is drawn
   * after the request's attributes are made, and for each item of a DELETECOLLECTION (R11.33, quirk Q1).
   */
  readonly name?: string;
}

/** Builds the attributes of one write; namespace and name come from the object written (the stored one for DELETE). */
export function admissionAttributes(input: AttributesInput): AdmissionAttributes {
  const meta = (input.object ?? input.oldObject)?.metadata;
  const { resource } = input;
  return {
    operation: input.operation,
    kind: { group: resource.group, version: resource.version, kind: resource.kind },
    resource,
    subresource: input.subresource ?? '',
    namespace: resource.namespaced ? meta?.namespace : undefined,
    name: input.name ?? meta?.name ?? '',
    object: input.object,
    oldObject: input.oldObject,
    user: input.user,
    dryRun: input.dryRun === true,
    options: input.options ?? {},
    warnings: input.warnings ?? [],
  };
}
