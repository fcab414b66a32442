import { type FieldError, fieldErrorBody, StatusError } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/types.js';
import type { AuthorizationAttributes, Authorizer } from '../../../auth/authorizer.js';
import type { UserInfo } from '../../../api/user.js';
import { type AccessReviewKind, validateAccessReview } from './access-review-validation.js';
import { accessReviewSpecJson, goObjectMeta, type Json, objectAt, omitEmpty } from './go-json.js';
import { selectorEvaluationError } from './selector-evaluation.js';

const GROUP = 'authorization.k8s.io';

const asString = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * 422 Invalid as the review REST storage raises it: the kind comes from the decoded internal object, whose
 * type meta is empty, so the message reads `.authorization.k8s.io "" is invalid: …` and details carry no kind.
 */
function invalidReview(group: string, errors: readonly FieldError[]): StatusError {
  const rendered = errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
  const summary = rendered.length === 1 ? rendered[0] : `[${rendered.join(', ')}]`;
  return new StatusError(422, 'Invalid', `.${group} "" is invalid: ${summary}`, {
    group,
    causes: errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
  });
}

/** The user a SubjectAccessReview asks about; without groups it belongs to none. */
function subjectOf(spec: Json): UserInfo {
  const groups = Array.isArray(spec.groups) ? spec.groups.map(asString) : [];
  const uid = asString(spec.uid);
  const extra = objectAt(spec, 'extra');
  const extraValues: Record<string, readonly string[]> = {};
  for (const [key, values] of Object.entries(extra ?? {})) extraValues[key] = Array.isArray(values) ? values.map(asString) : [];
  return {
    name: asString(spec.user),
    groups,
    ...(uid === '' ? {} : { uid }),
    ...(extra === undefined ? {} : { extra: extraValues }),
  };
}

/** The request the review describes, as the authorizer sees it; an empty version asks about every version. */
function attributesOf(user: UserInfo, spec: Json): AuthorizationAttributes {
  const resource = objectAt(spec, 'resourceAttributes');
  if (resource === undefined) {
    const nonResource = objectAt(spec, 'nonResourceAttributes') ?? {};
    return { user, resourceRequest: false, verb: asString(nonResource.verb), path: asString(nonResource.path) };
  }
  const version = asString(resource.version);
  return {
    user,
    resourceRequest: true,
    verb: asString(resource.verb),
    apiGroup: asString(resource.group),
    apiVersion: version === '' ? '*' : version,
    resource: asString(resource.resource),
    subresource: asString(resource.subresource),
    namespace: asString(resource.namespace),
    name: asString(resource.name),
  };
}

/**
 * Answers a SubjectAccessReview, LocalSubjectAccessReview or SelfSubjectAccessReview: validates it, asks the
 * authorizer (as `requester` for the self review, as the spec's subject otherwise) and returns the object with
 * its status. `allowed` is always written; `denied` only on an explicit deny.
 */
export function answerAccessReview(kind: AccessReviewKind, obj: KubeObject, requester: UserInfo, authorizer: Authorizer): KubeObject {
  const spec: Json = objectAt(obj as unknown as Json, 'spec') ?? {};
  const metadata = obj.metadata as unknown as Json;
  const errors = validateAccessReview(kind, spec, metadata);
  if (errors.length > 0) throw invalidReview(GROUP, errors);

  const self = kind === 'SelfSubjectAccessReview';
  const decision = authorizer.authorize(attributesOf(self ? requester : subjectOf(spec), spec));
  const resource = objectAt(spec, 'resourceAttributes');
  const status = {
    allowed: decision.decision === 'allow',
    ...omitEmpty([
      ['denied', decision.decision === 'deny'],
      ['reason', decision.reason],
      ['evaluationError', resource === undefined ? '' : selectorEvaluationError(resource)],
    ]),
  };
  return {
    kind: obj.kind,
    apiVersion: obj.apiVersion,
    metadata: goObjectMeta(metadata),
    spec: accessReviewSpecJson(spec, !self),
    status,
  } as KubeObject;
}
