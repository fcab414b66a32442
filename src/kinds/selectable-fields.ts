import type { KubeObject } from '../api/types.js';
import { type FieldRequirement, type FieldSelector, fieldSelectorFromRequirements } from '../selectors/field-selector.js';
import { SelectorError } from '../selectors/selector-error.js';
import { goQuote } from '../util/go-quote.js';
import type { FieldLabelConversion } from './define/field-selectors.js';
import { builtinKind } from './index.js';

/** apimachinery's default conversion, for kinds that register none: only metadata.name and metadata.namespace. */
const DEFAULT_CONVERSION: FieldLabelConversion = {
  labels: new Set(['metadata.name', 'metadata.namespace']),
  error: (label) => `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

const conversionFor = (kind: string, group: string): FieldLabelConversion =>
  builtinKind(group, kind)?.fieldSelectors?.conversion ?? DEFAULT_CONVERSION;

/** Whether a request may select on `field` for this kind (after legacy renames). */
export function isSupportedField(kind: string, group: string, field: string): boolean {
  const conversion = conversionFor(kind, group);
  return conversion.labels.has(field) || conversion.renames?.[field] !== undefined;
}

/**
 * Applies the kind's field label conversion to a parsed selector, as the list/watch handler does before
 * storage sees it. Throws SelectorError (→ 400 BadRequest) on the first unsupported label.
 */
export function convertFieldSelector(kind: string, group: string, selector: FieldSelector): FieldSelector {
  const conversion = conversionFor(kind, group);
  const converted: FieldRequirement[] = selector.requirements.map((requirement) => {
    const renamed = conversion.renames?.[requirement.field];
    if (renamed !== undefined) return { ...requirement, field: renamed };
    if (!conversion.labels.has(requirement.field)) throw new SelectorError(conversion.error(requirement.field));
    return requirement;
  });
  return fieldSelectorFromRequirements(converted);
}

/** The field set the storage matches field selectors against (the strategy's GetAttrs). */
export function selectableFields(kind: string, group: string, obj: KubeObject): Record<string, string> {
  const definition = builtinKind(group, kind);
  const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
  if (definition?.resource.namespaced ?? obj.metadata.namespace !== undefined) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
  return { ...(definition?.fieldSelectors?.attrs?.(obj) ?? {}), ...fields };
}
