import { badRequest, StatusError } from '../api/errors.js';
import type { ResourceInfo } from '../api/resource-info.js';
import type { KubeObject } from '../api/types.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { convertFieldSelector, selectableFields } from '../selectors/selectable-fields.js';

/** A compiled labelSelector + fieldSelector pair, applied to stored objects by list and watch. */
export interface Selection {
  /** True when both selectors are empty: everything matches. */
  readonly everything: boolean;
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

export function compileSelection(info: ResourceInfo, labelSelector: string | undefined, fieldSelector: string | undefined): Selection {
  const labels = parse(() => parseLabelSelector(labelSelector ?? ''));
  const fields = parse(() => convertFieldSelector(info.kind, info.group, parseFieldSelector(fieldSelector ?? '')));
  const noFields = fields.requirements.length === 0;
  return {
    everything: labels.empty && noFields,
    matches(obj) {
      if (!labels.matches(obj.metadata.labels)) return false;
      return noFields || fields.matches(selectableFields(info.kind, info.group, obj));
    },
  };
}
