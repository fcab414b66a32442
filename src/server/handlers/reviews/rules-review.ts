import { badRequest } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/types.js';
import type { Authorizer, NonResourceRuleInfo, ResourceRuleInfo } from '../../../auth/authorizer.js';
import type { UserInfo } from '../../../api/user.js';
import { type Json, objectAt, omitEmpty } from './go-json.js';

/** verbs is written even when empty (no omitempty); the other lists only when set. */
const resourceRule = (rule: ResourceRuleInfo): Json => ({
  verbs: [...rule.verbs],
  ...omitEmpty([
    ['apiGroups', [...rule.apiGroups]],
    ['resources', [...rule.resources]],
    ['resourceNames', [...rule.resourceNames]],
  ]),
});

const nonResourceRule = (rule: NonResourceRuleInfo): Json => ({
  verbs: [...rule.verbs],
  ...omitEmpty([['nonResourceURLs', [...rule.nonResourceURLs]]]),
});

/**
 * Answers a SelfSubjectRulesReview (`kubectl auth can-i --list`) with the requester's rules in spec.namespace.
 * Like kube-apiserver it answers with a new object: the spec is not echoed, and there is nothing to validate.
 */
export function answerRulesReview(obj: KubeObject, requester: UserInfo, authorizer: Authorizer): KubeObject {
  const spec = objectAt(obj as unknown as Json, 'spec') ?? {};
  const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
  if (namespace === '') throw badRequest('no namespace on request');
  const rules = authorizer.rulesFor(requester, namespace);
  return {
    kind: obj.kind,
    apiVersion: obj.apiVersion,
    metadata: { creationTimestamp: null },
    spec: {},
    status: {
      resourceRules: rules.resourceRules.map(resourceRule),
      nonResourceRules: rules.nonResourceRules.map(nonResourceRule),
      incomplete: rules.incomplete,
      ...omitEmpty([['evaluationError', rules.evaluationError]]),
    },
  } as unknown as KubeObject;
}
