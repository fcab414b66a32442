import { isObject, type KubeObject, objects } from '../../api/types.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';

/**
 * Which requests a MatchResources selects (R11.38–R11.45, R11.154, R11.155): rules on operation, group, version,
 * resource/subresource, scope and names, exclude rules first, then namespace and object selectors; with
 * matchPolicy Equivalent a rule may also match another served version of the same resource, which then becomes the
 * version the policy sees.
 */

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** What matching needs to know about a request. */
export interface MatchRequest {
  readonly operation: string;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  /** "" for cluster-scoped requests. */
  readonly namespace: string;
  readonly name: string;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  /** The other group-versions serving the same resource, tried in order under matchPolicy Equivalent. */
  equivalents(): readonly GroupVersionResource[];
  /** Labels of the request's namespace; throws the lookup's error (e.g. 404) when it cannot be read. */
  namespaceLabels(namespace: string): Record<string, string>;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const wildcard = (list: string[], value: string): boolean => list.includes('*') || list.includes(value);

function scopeMatches(scope: unknown, req: MatchRequest): boolean {
  const clusterScoped = req.namespace === '' || req.resource.resource === 'namespaces';
  if (scope === 'Cluster') return clusterScoped;
  if (scope === 'Namespaced') return !clusterScoped;
  return true;
}

function resourceMatches(resources: string[], gvr: GroupVersionResource, subresource: string): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === gvr.resource) && (sub === '*' || sub === subresource);
  });
}

/** One NamedRuleWithOperations against the request as seen through `gvr`. */
export function ruleMatches(rule: Record<string, unknown>, req: MatchRequest, gvr: GroupVersionResource = req.resource): boolean {
  const names = strings(rule.resourceNames);
  if (names.length > 0 && !names.includes(req.name)) return false;
  return (
    wildcard(strings(rule.operations), req.operation) &&
    wildcard(strings(rule.apiGroups), gvr.group) &&
    wildcard(strings(rule.apiVersions), gvr.version) &&
    resourceMatches(strings(rule.resources), gvr, req.subresource) &&
    scopeMatches(rule.scope, req)
  );
}

function selectorMatches(selector: unknown, labels: Record<string, string> | undefined): boolean {
  if (labels === undefined) return false;
  return labelSelectorAsSelector(asLabelSelectorObject(selector) ?? {}).matches(labels);
}

const isEmptySelector = (selector: unknown): boolean =>
  !isObject(selector) || (Object.keys(selector.matchLabels ?? {}).length === 0 && objects(selector.matchExpressions).length === 0);

const labelsOf = (obj: KubeObject | undefined): Record<string, string> | undefined =>
  obj === undefined ? undefined : ((obj.metadata.labels ?? {}) as Record<string, string>);

function namespaceSelectorMatches(selector: unknown, req: MatchRequest): boolean {
  if (isEmptySelector(selector)) return true;
  if (req.resource.resource === 'namespaces') {
    // A namespace's own labels: the incoming ones on create/update of the namespace itself, else the stored ones.
    const own = req.subresource === '' && req.object !== undefined ? req.object : req.oldObject;
    return selectorMatches(selector, labelsOf(own));
  }
  if (req.namespace === '') return true;
  return selectorMatches(selector, req.namespaceLabels(req.namespace));
}

function objectSelectorMatches(selector: unknown, req: MatchRequest): boolean {
  if (isEmptySelector(selector)) return true;
  return selectorMatches(selector, labelsOf(req.object)) || selectorMatches(selector, labelsOf(req.oldObject));
}

/**
 * The group-version-resource through which `m` matches the request, or undefined when it does not. With
 * `rulesOptional` (a binding's matchResources) no resource rules means every resource the policy matched.
 */
export function matchResources(m: Record<string, unknown>, req: MatchRequest, rulesOptional = false): GroupVersionResource | undefined {
  // Rules first: a namespace that cannot be read fails the request only when the rules match (R11.37).
  const gvr = matchingVersion(m, req, rulesOptional);
  if (gvr === undefined) return undefined;
  return namespaceSelectorMatches(m.namespaceSelector, req) && objectSelectorMatches(m.objectSelector, req) ? gvr : undefined;
}

function matchingVersion(m: Record<string, unknown>, req: MatchRequest, rulesOptional: boolean): GroupVersionResource | undefined {
  if (objects(m.excludeResourceRules).some((rule) => ruleMatches(rule, req))) return undefined;
  const rules = objects(m.resourceRules);
  if (rules.length === 0) return rulesOptional ? req.resource : undefined;
  if (rules.some((rule) => ruleMatches(rule, req))) return req.resource;
  if (m.matchPolicy !== 'Equivalent') return undefined;
  for (const rule of rules) {
    const gvr = req.equivalents().find((e) => ruleMatches(rule, req, e));
    if (gvr !== undefined) return gvr;
  }
  return undefined;
}
