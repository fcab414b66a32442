import type { Authorizer, Decision, NonResourceRuleInfo, ResourceRuleInfo, RulesInfo } from '../authorizer.js';
import { aggregateMessage } from './go-format.js';

/**
 * Asks authorizers in order; the first that allows or denies decides. When none does, the answer is noOpinion
 * with the reasons they gave, one per line. rulesFor joins everyone's rules (Kubernetes' union authorizer).
 */
export function unionAuthorizer(...authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(attributes): Decision {
      // Built only once an authorizer gives a reason: most requests are allowed by one of the first authorizers.
      let reasons: string[] | undefined;
      for (const a of authorizers) {
        const decision = a.authorize(attributes);
        if (decision.decision !== 'noOpinion') return decision;
        if (decision.reason === '') continue;
        reasons ??= [];
        reasons.push(decision.reason);
      }
      return { decision: 'noOpinion', reason: reasons === undefined ? '' : reasons.join('\n') };
    },
    rulesFor(user, namespace): RulesInfo {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const a of authorizers) {
        const rules = a.rulesFor(user, namespace);
        resourceRules.push(...rules.resourceRules);
        nonResourceRules.push(...rules.nonResourceRules);
        incomplete ||= rules.incomplete;
        if (rules.evaluationError !== undefined && rules.evaluationError !== '') errors.push(rules.evaluationError);
      }
      const info: RulesInfo = { resourceRules, nonResourceRules, incomplete };
      return errors.length > 0 ? { ...info, evaluationError: aggregateMessage(errors) } : info;
    },
  };
}
