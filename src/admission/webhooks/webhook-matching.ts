import { forbidden, notFound } from '../../api/errors.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { compileMatchCondition } from '../../kinds/admissionregistration-v1/webhook-match-conditions.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';
import { asLabelSelectorObject, labelSelectorAsSelector } from '../../selectors/label-selector-object.js';
import { requestNamespace } from './admission-review.js';
import { anyRuleMatches, equivalentResources, type RuleTarget } from './rule-matching.js';

/**
 * Whether one webhook is called for a request (generic.Webhook.ShouldCallHook, R11.37–R11.47): namespaceSelector,
 * objectSelector, rules (the request's own version, then under matchPolicy Equivalent the other served versions),
 * and finally the matchConditions in CEL.
 */

type Obj = Record<string, unknown>;

export interface MatchContext {
  /** The namespace's labels, read from the informer (live on a miss); undefined when it does not exist. */
  readonly namespaceLabels: (name: string) => Promise<Readonly<Record<string, string>> | undefined>;
  /** Every resource served now, for matchPolicy Equivalent. */
  readonly served: () => readonly ResourceInfo[];
}

const NAMESPACES_REF = { group: '', resource: 'namespaces' };

function selectorOf(value: unknown): ReturnType<typeof labelSelectorAsSelector> | undefined {
  const selector = asLabelSelectorObject(value);
  if (selector === undefined) return undefined;
  const parsed = labelSelectorAsSelector(selector);
  return parsed.empty ? undefined : parsed;
}

const labelsOf = (obj: KubeObject | undefined): Readonly<Record<string, string>> | undefined => obj?.metadata?.labels;

/** R11.45: the new or the old object must carry the labels; a missing object never matches. */
export function objectSelectorMatches(hook: Obj, attributes: AdmissionAttributes): boolean {
  const selector = selectorOf(hook.objectSelector);
  if (selector === undefined) return true;
  return [attributes.object, attributes.oldObject].some((obj) => obj?.metadata !== undefined && selector.matches(labelsOf(obj) ?? {}));
}

/** R11.42–R11.44. */
export async function namespaceSelectorMatches(hook: Obj, attributes: AdmissionAttributes, ctx: MatchContext): Promise<boolean> {
  const selector = selectorOf(hook.namespaceSelector);
  if (selector === undefined) return true;
  const { resource } = attributes;
  if (resource.group === '' && resource.plural === 'namespaces') {
    const ownLabels =
      attributes.subresource === '' && attributes.operation !== 'DELETE' ? labelsOf(attributes.object) : labelsOf(attributes.oldObject);
    return selector.matches(ownLabels ?? {});
  }
  const namespace = requestNamespace(attributes);
  if (namespace === '') return true;
  const labels = await ctx.namespaceLabels(namespace);
  if (labels === undefined) throw notFound(NAMESPACES_REF, namespace);
  return selector.matches(labels);
}

function targetOf(attributes: AdmissionAttributes, resource: ResourceInfo): RuleTarget {
  return {
    operation: attributes.operation,
    group: resource.group,
    version: resource.version,
    resource: resource.plural,
    subresource: attributes.subresource,
    namespace: requestNamespace(attributes) === '' || !attributes.resource.namespaced ? '' : requestNamespace(attributes),
  };
}

/** The version the webhook is called with, or undefined when no rule covers the request (R11.38–R11.41). */
export function invocationVersion(hook: Obj, attributes: AdmissionAttributes, ctx: MatchContext): ResourceInfo | undefined {
  if (anyRuleMatches(hook.rules, targetOf(attributes, attributes.resource))) return attributes.resource;
  if (hook.matchPolicy === 'Exact') return undefined;
  return equivalentResources(attributes.resource, ctx.served()).find((r) => anyRuleMatches(hook.rules, targetOf(attributes, r)));
}

/** cel-js's first line in cel-go's words for the errors tests match on. */
function runtimeError(err: unknown): string {
  const text = String((err as Error).message ?? err).split('\n')[0] ?? '';
  if (/^No such key: /.test(text)) return `no such key: ${text.slice('No such key: '.length)}`;
  if (/no matching overload|no such overload/i.test(text)) return 'no such overload';
  return text;
}

/**
 * R11.47: any false condition skips the webhook; otherwise errors refuse the request under Fail (403, R11.48,
 * quirk Q14) or skip the webhook under Ignore.
 */
export function matchConditionsAllow(hook: Obj, activation: Readonly<Record<string, unknown>>, attributes: AdmissionAttributes): boolean {
  const conditions = Array.isArray(hook.matchConditions) ? hook.matchConditions.filter(isObject) : [];
  const errors: string[] = [];
  for (const condition of conditions) {
    const expression = typeof condition.expression === 'string' ? condition.expression : '';
    const compiled = compileMatchCondition(expression);
    if (typeof compiled === 'string') {
      errors.push(`compilation failed: ${compiled}`);
      continue;
    }
    try {
      const result = compiled.program({ ...activation });
      if (result === false) return false;
      if (result !== true) errors.push(`expression '${expression}' resulted in error: no such overload`);
    } catch (err) {
      errors.push(`expression '${expression}' resulted in error: ${runtimeError(err)}`);
    }
  }
  if (errors.length === 0) return true;
  if (hook.failurePolicy === 'Ignore') return false;
  const why = errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
  throw forbidden({ group: attributes.resource.group, resource: attributes.resource.plural }, attributes.name, why);
}
