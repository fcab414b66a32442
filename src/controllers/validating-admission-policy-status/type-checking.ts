import type { JSONSchemaProps } from '../../api/json-schema-props.js';
import type { ResourceInfo } from '../../api/resource-info.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { SchemaTypes } from '../../apiextensions/cel/schema-types.js';
import { baseEnvironment } from '../../cel/compile.js';
import { PolicyCompiler } from '../../cel/policy-compiler.js';

/**
 * The status controller's type checking of a ValidatingAdmissionPolicy (R11.174, kube-controller-manager's
 * TypeChecker): every validation's expression and messageExpression is compiled once per kind the policy's
 * resource rules name (wildcards and subresources skipped, at most ten kinds, sorted by group, version, kind), with
 * `object`/`oldObject` typed by that kind's schema and `params` by the paramKind's; what fails to compile becomes an
 * `expressionWarnings` entry worded as Kubernetes words it. Kinds without a known schema are not checked.
 */

export interface ExpressionWarning {
  readonly fieldRef: string;
  readonly warning: string;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** Where the checker finds kinds and their schemas (served resources, OpenAPI definitions). */
export interface TypeCheckingSources {
  readonly resources: readonly ResourceInfo[];
  schemaOf(gvk: GroupVersionKind): JSONSchemaProps | undefined;
}

const MAX_TYPES_TO_CHECK = 10;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Go's GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`. */
export const gvkString = (gvk: GroupVersionKind): string => `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;

const compareGvk = (a: GroupVersionKind, b: GroupVersionKind): number =>
  a.group !== b.group
    ? a.group < b.group
      ? -1
      : 1
    : a.version !== b.version
      ? a.version < b.version
        ? -1
        : 1
      : a.kind < b.kind
        ? -1
        : a.kind > b.kind
          ? 1
          : 0;

/** typesToCheck: the kinds the resource rules name without wildcards. */
export function typesToCheck(policy: KubeObject, resources: readonly ResourceInfo[]): GroupVersionKind[] {
  const spec = isObject(policy.spec) ? policy.spec : {};
  const constraints = isObject(spec.matchConstraints) ? spec.matchConstraints : {};
  const found = new Map<string, GroupVersionKind>();
  let count = 0;
  for (const rule of objects(constraints.resourceRules)) {
    const groups = strings(rule.apiGroups);
    const versions = strings(rule.apiVersions);
    // A wildcard group or version gives up on the rule; wildcard resources and subresources are skipped.
    if (groups.length === 0 || groups.some((g) => g.includes('*'))) continue;
    if (versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const plurals = strings(rule.resources).filter((r) => !/[*/]/.test(r));
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const plural of [...plurals].sort()) {
          const info = resources.find((r) => r.group === group && r.version === version && r.plural === plural);
          if (info === undefined) continue;
          const gvk = { group, version, kind: info.kind };
          found.set(gvkString(gvk), gvk);
          if (++count === MAX_TYPES_TO_CHECK) return [...found.values()].sort(compareGvk);
        }
      }
    }
  }
  return [...found.values()].sort(compareGvk);
}

function paramsGvk(spec: Record<string, unknown>): GroupVersionKind | undefined {
  if (!isObject(spec.paramKind)) return undefined;
  const apiVersion = text(spec.paramKind.apiVersion);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return { group, version, kind: text(spec.paramKind.kind) };
}

/** A compiler whose `object`/`oldObject` (and `params`, when its schema is known) have the schemas' types. */
function typedCompiler(spec: Record<string, unknown>, object: JSONSchemaProps, params: JSONSchemaProps | undefined): PolicyCompiler {
  const env = baseEnvironment().clone();
  const types = new SchemaTypes(env, (s) => s);
  const objectType = types.nodeType(object, true)?.type ?? 'dyn';
  const paramsType = params === undefined ? undefined : (types.nodeType(params, true)?.type ?? 'dyn');
  const variables = objects(spec.variables).map((v) => ({ name: text(v.name), expression: text(v.expression) }));
  // Cascade declares params as dyn when their kind's schema is unknown (kube-controller-manager leaves them out).
  return new PolicyCompiler(isObject(spec.paramKind), variables, { env, object: objectType, params: paramsType });
}

/** The policy's expressionWarnings, in Kubernetes' order (validations by index, expression then messageExpression). */
export function typeCheckPolicy(policy: KubeObject, sources: TypeCheckingSources): ExpressionWarning[] {
  const spec = isObject(policy.spec) ? policy.spec : {};
  const kinds = typesToCheck(policy, sources.resources)
    .map((gvk) => ({ gvk, schema: sources.schemaOf(gvk) }))
    .filter((k): k is { gvk: GroupVersionKind; schema: JSONSchemaProps } => k.schema !== undefined);
  if (kinds.length === 0) return [];
  const paramKind = paramsGvk(spec);
  const paramSchema = paramKind === undefined ? undefined : sources.schemaOf(paramKind);
  const compilers = kinds.map((k) => ({ gvk: k.gvk, compiler: typedCompiler(spec, k.schema, paramSchema) }));
  const check = (expression: string): string | undefined => {
    const messages: string[] = [];
    for (const { gvk, compiler } of compilers) {
      const issues = compiler.typeCheck(expression);
      if (issues !== undefined) messages.push(`${gvkString(gvk)}: ${issues}\n`);
    }
    return messages.length === 0 ? undefined : messages.join('\n');
  };
  const warnings: ExpressionWarning[] = [];
  objects(spec.validations).forEach((v, i) => {
    const onExpression = check(text(v.expression));
    if (onExpression !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: onExpression });
    const messageExpression = text(v.messageExpression);
    if (messageExpression === '') return;
    const onMessage = check(messageExpression);
    if (onMessage !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: onMessage });
  });
  return warnings;
}
