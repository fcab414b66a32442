import { addAuditAnnotation } from '../../audit/context.js';
import { randomUUID } from 'node:crypto';
import { badRequest, internalError, StatusError } from '../../api/errors.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';
import { admissionReviewRequest, type ReviewResponse, readReviewResponse, type WebhookFlavour } from './admission-review.js';
import type { WebhookTransport } from './webhook-client.js';
import type { WebhookEntry } from './webhook-configurations.js';
import {
  type MatchContext,
  invocationVersion,
  matchConditionsAllow,
  namespaceSelectorMatches,
  objectSelectorMatches,
} from './webhook-matching.js';

/**
 * What both webhook plugins do for one webhook: decide whether it is called, call it, and turn its answer or its
 * failure into what Kubernetes returns (R11.36, R11.57, R11.75–R11.77).
 */

export interface WebhookPluginOptions {
  readonly client: WebhookTransport;
  readonly match: MatchContext;
}

const NO_SIDE_EFFECTS_ON_DRY_RUN = new Set(['None', 'NoneOnDryRun']);

export const groupVersion = (r: Pick<ResourceInfo, 'group' | 'version'>): string =>
  r.group === '' ? r.version : `${r.group}/${r.version}`;

/** The object as another served version of the same resource shows it (CRD strategy None: only apiVersion differs). */
export function asVersion(obj: KubeObject | undefined, version: ResourceInfo): KubeObject | undefined {
  return obj === undefined ? undefined : { ...obj, apiVersion: groupVersion(version) };
}

/** The version to call the webhook with, or undefined when it is not interested (R11.37). */
export async function shouldCall(
  hook: WebhookEntry,
  attributes: AdmissionAttributes,
  ctx: MatchContext,
): Promise<ResourceInfo | undefined> {
  const invocation = invocationVersion(hook, attributes, ctx);
  if (invocation === undefined) return undefined;
  if (!(await namespaceSelectorMatches(hook, attributes, ctx))) return undefined;
  if (!objectSelectorMatches(hook, attributes)) return undefined;
  if (Array.isArray(hook.matchConditions) && hook.matchConditions.length > 0) {
    const review = admissionReviewRequest({
      uid: '',
      attributes,
      invocation,
      object: asVersion(attributes.object, invocation),
      oldObject: asVersion(attributes.oldObject, invocation),
    });
    const request = review.request as Record<string, unknown>;
    const activation = { object: request.object, oldObject: request.oldObject, request, namespaceObject: null };
    if (!matchConditionsAllow(hook, activation, attributes)) return undefined;
  }
  return invocation;
}

/** R11.36: a dry run may not reach a webhook that declares side effects. */
export function checkDryRun(hook: WebhookEntry, attributes: AdmissionAttributes): void {
  if (attributes.dryRun && !NO_SIDE_EFFECTS_ON_DRY_RUN.has(String(hook.sideEffects)))
    throw badRequest(`admission webhook "${hook.name}" does not support dry run`);
}

/** R11.75: the webhook's own status, its message prefixed with who denied, code at least 400. */
export function denial(hook: WebhookEntry, status: Record<string, unknown> | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(hook.name)} denied the request`;
  const message = typeof status?.message === 'string' ? status.message : '';
  const reason = typeof status?.reason === 'string' ? status.reason : '';
  const text = message !== '' ? `${deniedBy}: ${message}` : reason !== '' ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  const code = typeof status?.code === 'number' && status.code >= 400 ? status.code : 400;
  return new StatusError(code, reason, text, isObject(status?.details) ? status.details : undefined);
}

/** R11.76: a call failure as the client sees it under failurePolicy Fail. */
export function callFailure(hook: WebhookEntry, err: unknown): StatusError {
  const reason = err instanceof Error ? err.message : String(err);
  return internalError(new Error(`failed calling webhook ${JSON.stringify(hook.name)}: ${reason}`));
}

export type CallResult = { readonly ok: true; readonly response: ReviewResponse } | { readonly ok: false; readonly failure: StatusError };

/** One call; a failure is returned (for the failure policy to judge), never thrown. */
export async function callWebhook(
  hook: WebhookEntry,
  flavour: WebhookFlavour,
  attributes: AdmissionAttributes,
  invocation: ResourceInfo,
  client: WebhookTransport,
): Promise<CallResult> {
  const uid = randomUUID();
  const review = admissionReviewRequest({
    uid,
    attributes,
    invocation,
    object: asVersion(attributes.object, invocation),
    oldObject: asVersion(attributes.oldObject, invocation),
  });
  const timeoutSeconds = typeof hook.timeoutSeconds === 'number' ? hook.timeoutSeconds : 10;
  const clientConfig = isObject(hook.clientConfig) ? hook.clientConfig : {};
  try {
    const body = await client.post(clientConfig, review, Date.now() + timeoutSeconds * 1000);
    return { ok: true, response: readReviewResponse(body, uid, flavour) };
  } catch (err) {
    return { ok: false, failure: callFailure(hook, err) };
  }
}

/** Denials and Fail-policy failures end the request; Ignore lets it through as if the webhook had not been called. */
export function judge(hook: WebhookEntry, result: CallResult, attributes: AdmissionAttributes): ReviewResponse | undefined {
  if (!result.ok) {
    if (hook.failurePolicy === 'Ignore') return undefined;
    throw result.failure;
  }
  attributes.warnings.push(...result.response.warnings);
  // Recorded whether the webhook allows or denies: `<webhook name>/<key>` in the request's audit event.
  for (const [key, value] of Object.entries(result.response.auditAnnotations)) addAuditAnnotation(`${hook.name}/${key}`, value);
  if (!result.response.allowed) throw denial(hook, result.response.status);
  return result.response;
}
