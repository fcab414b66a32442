import { parse as parseYaml } from 'yaml';
import type { UserInfo } from '../api/user.js';

/**
 * The audit policy (`--audit-policy-file`, audit.k8s.io/v1 Policy): the first rule that matches a request sets its
 * level (None when none does) and the stages it is not logged at, as kube-apiserver's policy evaluator does.
 */

/** What the policy and the event read of a request: the authorizer's attributes (auth/authorizer.ts), by shape. */
export type AuditRequestAttributes =
  | {
      readonly user: UserInfo;
      readonly resourceRequest: true;
      readonly verb: string;
      readonly apiGroup: string;
      readonly apiVersion: string;
      readonly resource: string;
      readonly subresource: string;
      readonly namespace: string;
      readonly name: string;
    }
  | { readonly user: UserInfo; readonly resourceRequest: false; readonly verb: string; readonly path: string };

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

const LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

interface GroupResources {
  readonly group: string;
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

interface PolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  readonly omitStages: readonly AuditStage[] | undefined;
}

export interface AuditDecision {
  readonly level: AuditLevel;
  readonly omitStages: ReadonlySet<AuditStage>;
}

export class AuditPolicyError extends Error {}

const strings = (v: unknown, what: string): string[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new AuditPolicyError(`${what} must be a list of strings`);
  return v as string[];
};

function stages(v: unknown, what: string): AuditStage[] {
  const list = strings(v, what);
  for (const s of list) if (!STAGES.includes(s as AuditStage)) throw new AuditPolicyError(`${what}: unknown stage "${s}"`);
  return list as AuditStage[];
}

function parseRule(raw: unknown, i: number): PolicyRule {
  const at = `rules[${i}]`;
  if (raw === null || typeof raw !== 'object') throw new AuditPolicyError(`${at} must be an object`);
  const r = raw as Record<string, unknown>;
  if (!LEVELS.includes(r.level as AuditLevel)) throw new AuditPolicyError(`${at}.level: unknown level "${String(r.level)}"`);
  const resources = Array.isArray(r.resources)
    ? r.resources.map((g: unknown, j: number) => {
        const gr = (g ?? {}) as Record<string, unknown>;
        return {
          group: typeof gr.group === 'string' ? gr.group : '',
          resources: strings(gr.resources, `${at}.resources[${j}].resources`),
          resourceNames: strings(gr.resourceNames, `${at}.resources[${j}].resourceNames`),
        };
      })
    : [];
  const nonResourceURLs = strings(r.nonResourceURLs, `${at}.nonResourceURLs`);
  if (nonResourceURLs.length > 0 && (resources.length > 0 || strings(r.namespaces, `${at}.namespaces`).length > 0))
    throw new AuditPolicyError(`${at}: rules cannot apply to both regular resources and non-resource URLs`);
  return {
    level: r.level as AuditLevel,
    users: strings(r.users, `${at}.users`),
    userGroups: strings(r.userGroups, `${at}.userGroups`),
    verbs: strings(r.verbs, `${at}.verbs`),
    resources,
    namespaces: strings(r.namespaces, `${at}.namespaces`),
    nonResourceURLs,
    omitStages: r.omitStages === undefined ? undefined : stages(r.omitStages, `${at}.omitStages`),
  };
}

export class AuditPolicy {
  private readonly rules: readonly PolicyRule[];
  private readonly omitStages: readonly AuditStage[];

  constructor(rules: readonly PolicyRule[], omitStages: readonly AuditStage[]) {
    this.rules = rules;
    this.omitStages = omitStages;
  }

  /** Parses a policy file's text (YAML or JSON); throws AuditPolicyError naming what is wrong. */
  static parse(text: string): AuditPolicy {
    let doc: unknown;
    try {
      doc = parseYaml(text);
    } catch (err) {
      throw new AuditPolicyError(`cannot parse: ${(err as Error).message}`);
    }
    if (doc === null || typeof doc !== 'object') throw new AuditPolicyError('not an audit.k8s.io/v1 Policy');
    const d = doc as Record<string, unknown>;
    if (d.apiVersion !== 'audit.k8s.io/v1' || d.kind !== 'Policy') throw new AuditPolicyError('not an audit.k8s.io/v1 Policy');
    const rules = Array.isArray(d.rules) ? d.rules.map(parseRule) : [];
    if (rules.length === 0) throw new AuditPolicyError('the policy has no rules');
    return new AuditPolicy(rules, stages(d.omitStages, 'omitStages'));
  }

  /** The level and omitted stages of one request (user and request as the authorizer saw them). */
  decide(attributes: AuditRequestAttributes): AuditDecision {
    const rule = this.rules.find((r) => ruleMatches(r, attributes));
    if (rule === undefined) return { level: 'None', omitStages: new Set() };
    return { level: rule.level, omitStages: new Set([...this.omitStages, ...(rule.omitStages ?? [])]) };
  }
}

function ruleMatches(rule: PolicyRule, a: AuditRequestAttributes): boolean {
  if (rule.users.length > 0 && !rule.users.includes(a.user.name)) return false;
  if (rule.userGroups.length > 0 && !rule.userGroups.some((g) => a.user.groups.includes(g))) return false;
  if (rule.verbs.length > 0 && !rule.verbs.includes(a.verb)) return false;
  if (rule.namespaces.length > 0 || rule.resources.length > 0) {
    if (!a.resourceRequest) return false;
    if (rule.namespaces.length > 0 && !rule.namespaces.includes(a.namespace)) return false;
    if (rule.resources.length > 0 && !rule.resources.some((gr) => resourceMatches(gr, a.apiGroup, a.resource, a.subresource, a.name)))
      return false;
  }
  if (rule.nonResourceURLs.length > 0) {
    if (a.resourceRequest) return false;
    if (!rule.nonResourceURLs.some((u) => (u.endsWith('*') ? a.path.startsWith(u.slice(0, -1)) : a.path === u))) return false;
  }
  return true;
}

// Resource patterns: a resource, resource/subresource, a star, star/subresource or resource/star, with resourceNames;
// an empty list matches every resource of the group.
function resourceMatches(gr: GroupResources, group: string, resource: string, subresource: string, name: string): boolean {
  if (gr.group !== group) return false;
  if (gr.resources.length === 0) return true;
  if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(name)) return false;
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  return gr.resources.some(
    (r) =>
      r === '*' ||
      r === combined ||
      (r.startsWith('*/') && subresource !== '' && r.slice(2) === subresource) ||
      (r.endsWith('/*') && r.slice(0, -2) === resource),
  );
}
