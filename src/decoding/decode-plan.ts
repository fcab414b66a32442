import { type Definitions, resolveSchema, type Schema } from '../openapi/schema.js';
import { definitionName, structName } from './go-type-names.js';

/**
 * How a value of one schema is decoded, decided once per schema instead of on every value: $refs resolved, the
 * Kubernetes extensions and formats folded into one kind, the property table built. Child plans are compiled on
 * first use, so recursive definitions and dangling references behave as when the schema is walked directly (a
 * dangling reference fails only once a value reaches it).
 */
export type PlanKind =
  | 'timestamp'
  | 'int-or-string'
  | 'quantity'
  /** Preserve-unknown-fields without properties: any JSON is kept as it is. */
  | 'keep'
  /** An object with properties. */
  | 'struct'
  /** An object whose values follow one schema (additionalProperties). */
  | 'map'
  /** An object with no further schema. */
  | 'free-object'
  /** An array whose items follow one schema. */
  | 'list'
  /** An array with no item schema. */
  | 'free-array'
  | 'string'
  | 'bytes'
  | 'integer'
  | 'int32'
  | 'number'
  | 'boolean'
  /** No type: any JSON is kept as it is. */
  | 'any';

/** A schema reached from its parent, with its plan once compiled. */
export interface PlanSlot {
  readonly declared: Schema;
  plan: DecodePlan | undefined;
}

export interface DecodePlan {
  readonly kind: PlanKind;
  /** The schema as referenced (with its $ref, if any) and as resolved: both name the Go type in errors. */
  readonly declared: Schema;
  readonly resolved: Schema;
  /** The Go struct name of a $ref'd type ("DeploymentSpec"), the context of its fields' type errors. */
  readonly struct: string | undefined;
  /** For structs: the known properties. */
  readonly properties: ReadonlyMap<string, PlanSlot> | undefined;
  /** For structs: unknown fields are kept rather than dropped. */
  readonly preserveUnknown: boolean;
  /** For maps: the value schema; for lists: the item schema. */
  readonly element: PlanSlot | undefined;
  /** For a `{ $ref }` schema: the definition it names and the schema that definition held when compiled. */
  readonly definition: string | undefined;
  readonly target: Schema | undefined;
}

interface PlanCache {
  /** Plans of `{ $ref }` schemas by reference: only the reference matters for decoding. */
  readonly byRef: Map<string, DecodePlan>;
  readonly inline: WeakMap<Schema, DecodePlan>;
}

const caches = new WeakMap<Definitions, PlanCache>();

/** The plan of `declared`, compiled on first use and cached per definitions. */
export function planFor(definitions: Definitions, declared: Schema): DecodePlan {
  let cache = caches.get(definitions);
  if (cache === undefined) {
    cache = { byRef: new Map(), inline: new WeakMap() };
    caches.set(definitions, cache);
  }
  const ref = declared.$ref;
  const cached = ref === undefined ? cache.inline.get(declared) : cache.byRef.get(ref);
  if (cached !== undefined && isCurrent(definitions, cached)) return cached;
  const plan = compile(definitions, declared);
  if (ref === undefined) cache.inline.set(declared, plan);
  else cache.byRef.set(ref, plan);
  return plan;
}

/** The slot's plan, compiling it on first use. */
export function slotPlan(definitions: Definitions, slot: PlanSlot): DecodePlan {
  if (slot.plan === undefined || !isCurrent(definitions, slot.plan)) slot.plan = planFor(definitions, slot.declared);
  return slot.plan;
}

/** Definitions may be replaced (a changed custom resource schema): a plan is only used while its definition stands. */
function isCurrent(definitions: Definitions, plan: DecodePlan): boolean {
  return plan.definition === undefined || definitions[plan.definition] === plan.target;
}

const V2_REF_PREFIX = '#/definitions/';

function compile(definitions: Definitions, declared: Schema): DecodePlan {
  const resolved = resolveSchema(definitions, declared);
  const referenced = declared.$ref === undefined ? undefined : declared.$ref.startsWith(V2_REF_PREFIX) ? declared.$ref.slice(V2_REF_PREFIX.length) : declared.$ref;
  const target = referenced === undefined ? undefined : definitions[referenced];
  const definition = definitionName(declared);
  const plan = (kind: PlanKind, extra: Partial<Pick<DecodePlan, 'properties' | 'preserveUnknown' | 'element'>> = {}): DecodePlan => ({
    kind,
    declared,
    resolved,
    struct: definition === undefined ? undefined : structName(definition),
    properties: extra.properties,
    preserveUnknown: extra.preserveUnknown ?? false,
    element: extra.element,
    definition: referenced,
    target,
  });
  // The order of these checks is the order in which the decoder gives them precedence.
  if (resolved.format === 'date-time') return plan('timestamp');
  if (resolved['x-kubernetes-int-or-string'] === true || resolved.format === 'int-or-string') return plan('int-or-string');
  if (definition?.endsWith('.api.resource.Quantity') === true) return plan('quantity');
  const preserveUnknown = resolved['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserveUnknown && resolved.properties === undefined) return plan('keep');
  switch (schemaType(resolved)) {
    case 'object': {
      if (resolved.properties !== undefined) {
        const properties = new Map<string, PlanSlot>();
        for (const [name, child] of Object.entries(resolved.properties)) properties.set(name, { declared: child, plan: undefined });
        return plan('struct', { properties, preserveUnknown });
      }
      const values = resolved.additionalProperties;
      if (typeof values === 'object') return plan('map', { element: { declared: values, plan: undefined } });
      return plan('free-object');
    }
    case 'array':
      return resolved.items === undefined ? plan('free-array') : plan('list', { element: { declared: resolved.items, plan: undefined } });
    case 'string':
      return plan(resolved.format === 'byte' ? 'bytes' : 'string');
    case 'integer':
      return plan(resolved.format === 'int32' ? 'int32' : 'integer');
    case 'number':
      return plan('number');
    case 'boolean':
      return plan('boolean');
    default:
      return plan('any');
  }
}

export function schemaType(schema: Schema): Schema['type'] {
  if (schema.type !== undefined) return schema.type;
  return schema.properties !== undefined || typeof schema.additionalProperties === 'object' ? 'object' : undefined;
}
