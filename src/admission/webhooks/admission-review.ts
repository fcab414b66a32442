import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';

/**
 * AdmissionReview v1 as kube-apiserver sends and reads it (R11.60–R11.74): the request built from the admission
 * attributes and the version the webhook matched, and the checks a response must pass before it is believed.
 */

const REVIEW_API_VERSION = 'admission.k8s.io/v1';
const OPTIONS_KIND = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

export type WebhookFlavour = 'mutating' | 'validating';

export interface ReviewInput {
  readonly uid: string;
  readonly attributes: AdmissionAttributes;
  /** The version the webhook matched (the request's own, or an equivalent one under matchPolicy Equivalent). */
  readonly invocation: ResourceInfo;
  /** The objects as the invocation version serves them. */
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
}

/** userInfo as authentication.k8s.io/v1 UserInfo prints it: empty fields are left out. */
function userInfoOf(user: UserInfo | undefined): Record<string, unknown> {
  if (user === undefined) return {};
  const out: Record<string, unknown> = { username: user.name };
  if (user.uid !== undefined && user.uid !== '') out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) out.extra = user.extra;
  return out;
}

/** R11.63: a namespace's own name is the request namespace of writes to it. */
export function requestNamespace(attributes: AdmissionAttributes): string {
  if (attributes.resource.group === '' && attributes.resource.plural === 'namespaces') return attributes.name;
  return attributes.namespace ?? '';
}

export function admissionReviewRequest(input: ReviewInput): Record<string, unknown> {
  const { attributes: a, invocation } = input;
  const request: Record<string, unknown> = {
    uid: input.uid,
    kind: { group: invocation.group, version: invocation.version, kind: a.kind.kind },
    resource: { group: invocation.group, version: invocation.version, resource: invocation.plural },
  };
  if (a.subresource !== '') request.subResource = a.subresource;
  request.requestKind = { group: a.kind.group, version: a.kind.version, kind: a.kind.kind };
  request.requestResource = { group: a.resource.group, version: a.resource.version, resource: a.resource.plural };
  if (a.subresource !== '') request.requestSubResource = a.subresource;
  if (a.name !== '') request.name = a.name;
  const namespace = requestNamespace(a);
  if (namespace !== '') request.namespace = namespace;
  request.operation = a.operation;
  request.userInfo = userInfoOf(a.user);
  request.object = input.object ?? null;
  request.oldObject = input.oldObject ?? null;
  request.dryRun = a.dryRun;
  request.options = { ...a.options, kind: OPTIONS_KIND[a.operation], apiVersion: 'meta.k8s.io/v1' };
  return { kind: 'AdmissionReview', apiVersion: REVIEW_API_VERSION, request };
}

/** A response kube-apiserver refuses to believe (R11.73); a call failure under the webhook's failurePolicy. */
export class InvalidWebhookResponse extends Error {
  constructor(message: string) {
    super(`received invalid webhook response: ${message}`);
    this.name = 'InvalidWebhookResponse';
  }
}

export interface ReviewResponse {
  readonly allowed: boolean;
  readonly status: Record<string, unknown> | undefined;
  /** The JSON Patch document still base64-encoded, when a mutating webhook returned one. */
  readonly patch: string | undefined;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** `<group>/<version>, Kind=<kind>`, as Go prints a GroupVersionKind. */
function gvkText(apiVersion: unknown, kind: unknown): string {
  const gv = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = gv.indexOf('/');
  const group = slash < 0 ? '' : gv.slice(0, slash);
  const version = slash < 0 ? gv : gv.slice(slash + 1);
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Checks a decoded AdmissionReview answer against the request's uid (R11.68–R11.72). */
export function readReviewResponse(body: unknown, uid: string, flavour: WebhookFlavour): ReviewResponse {
  const review = isObject(body) ? body : {};
  if (review.apiVersion !== REVIEW_API_VERSION || review.kind !== 'AdmissionReview')
    throw new InvalidWebhookResponse(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkText(review.apiVersion, review.kind)}`,
    );
  if (!isObject(review.response)) throw new InvalidWebhookResponse('webhook response was absent');
  const response = review.response;
  const gotUid = typeof response.uid === 'string' ? response.uid : '';
  if (gotUid !== uid) throw new InvalidWebhookResponse(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(gotUid)}`);
  const patch = typeof response.patch === 'string' && response.patch !== '' ? response.patch : undefined;
  const hasPatchType = typeof response.patchType === 'string';
  if (flavour === 'validating') {
    if (patch !== undefined) throw new InvalidWebhookResponse('validating webhook may not return response.patch');
    if (hasPatchType) throw new InvalidWebhookResponse('validating webhook may not return response.patchType');
  } else {
    if (patch !== undefined && !hasPatchType)
      throw new InvalidWebhookResponse('webhook returned response.patch but not response.patchType');
    if (patch === undefined && hasPatchType) throw new InvalidWebhookResponse('webhook returned response.patchType but not response.patch');
    if (hasPatchType && response.patchType === '') throw new InvalidWebhookResponse('webhook returned invalid response.patchType of ""');
    if (hasPatchType && response.patchType !== 'JSONPatch') throw new Error(`unsupported patch type ${JSON.stringify(response.patchType)}`);
  }
  return {
    allowed: response.allowed === true,
    status: isObject(response.status) ? response.status : undefined,
    patch,
    warnings: stringList(response.warnings),
    auditAnnotations: stringMap(response.auditAnnotations),
  };
}
