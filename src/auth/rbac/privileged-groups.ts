import type { Authorizer, Decision } from '../authorizer.js';
import { SYSTEM_MASTERS } from '../../api/user.js';

/** Shared answers: asked before every other authorizer on every request, so nothing is allocated per call. */
const ALLOW: Decision = { decision: 'allow', reason: '' };
const NO_OPINION: Decision = { decision: 'noOpinion', reason: '' };

/**
 * Allows members of the given groups everything, before any other authorizer is asked (kube-apiserver puts one
 * for system:masters first in its chain). It states no rules: SelfSubjectRulesReview shows only what RBAC grants.
 */
export function privilegedGroupsAuthorizer(groups: readonly string[] = [SYSTEM_MASTERS]): Authorizer {
  return {
    authorize: (attributes) => {
      for (const group of attributes.user.groups) if (groups.includes(group)) return ALLOW;
      return NO_OPINION;
    },
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
}
