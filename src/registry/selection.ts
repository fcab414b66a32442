import { badRequest, StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { type FieldRequirement, fieldSelectorFromRequirements, parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { convertFieldSelector, selectableFields } from '../kinds/selectable-fields.js';
import type { ComputedField } from './computed-fields.js';

/** A compiled labelSelector + fieldSelector pair, applied to stored objects by list and watch. */
export interface Selection {
  /** True when both selectors are empty: everything matches. */
  readonly everything: boolean;
  /**
   * The name the field selector requires (`metadata.name=<name>`), if any: an object with another name cannot
   * match, which a watch tells from the storage key without decoding the value.
   */
  readonly requiredName?: string;
  matches(obj: KubeObject): boolean;
}

/** Selector syntax errors become 400 BadRequest with the parser's message. */
function parse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw badRequest(err instanceof Error ? err.message : String(err));
  }
}

/**
 * `computed` holds the resource's computed field labels (computed-fields.ts): requirements on them are matched
 * against the computed values; every other requirement goes through the kind's field label conversion.
 */
export function compileSelection(
  info: ResourceInfo,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
  computed: ReadonlyMap<string, ComputedField> = new Map(),
): Selection {
  const labels = parse(() => parseLabelSelector(labelSelector ?? ''));
  const requested = parse(() => parseFieldSelector(fieldSelector ?? ''));
  const onComputed: FieldRequirement[] = [];
  const onFields: FieldRequirement[] = [];
  for (const requirement of requested.requirements) (computed.has(requirement.field) ? onComputed : onFields).push(requirement);
  const fields = parse(() => convertFieldSelector(info.kind, info.group, fieldSelectorFromRequirements(onFields)));
  const noFields = fields.requirements.length === 0;
  const matchesComputed = (obj: KubeObject): boolean =>
    onComputed.every(({ field, operator, value }) => (computed.get(field) as ComputedField)(obj).includes(value) === (operator === '='));
  return {
    everything: labels.empty && noFields && onComputed.length === 0,
    requiredName: noFields ? undefined : fields.requiresExactMatch('metadata.name'),
    matches(obj) {
      if (!labels.matches(obj.metadata.labels)) return false;
      if (!noFields && !fields.matches(selectableFields(info.kind, info.group, obj))) return false;
      return matchesComputed(obj);
    },
  };
}
