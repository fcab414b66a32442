import { GoLiteral } from '../../../api/errors.js';
import { isObject } from '../../../api/types.js';
import { goQuote } from '../../../util/go-quote.js';

/**
 * Go's `%#v` of the internal structs the access-review validation reports as bad values (field.Invalid prints
 * structs without a String method that way), so Invalid messages read as kube-apiserver's do.
 */

const str = (value: unknown): string => goQuote(typeof value === 'string' ? value : '');

/** A string-keyed Go map or slice, nil when empty. */
function stringMap(value: unknown): string {
  if (!isObject(value) || Object.keys(value).length === 0) return 'map[string]string(nil)';
  const keys = Object.keys(value).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${str(value[k])}`).join(', ')}}`;
}

function stringSlice(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '[]string(nil)';
  return `[]string{${value.map(str).join(', ')}}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** time.Time's GoString; metav1.Time decodes into local time, the zero value has no location (UTC). */
function goTime(value: unknown): string {
  if (typeof value !== 'string') return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const t = new Date(value);
  return `time.Date(${t.getUTCFullYear()}, time.${MONTHS[t.getUTCMonth()]}, ${t.getUTCDate()}, ${t.getUTCHours()}, ${t.getUTCMinutes()}, ${t.getUTCSeconds()}, 0, time.Local)`;
}

/** A non-nil pointer prints as its address, which no client can predict; a fixed one stands in for it. */
const pointer = (type: string, value: unknown): string =>
  value === undefined || value === null ? `(*${type})(nil)` : `(*${type})(0xc000000000)`;

function ownerReferences(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '[]v1.OwnerReference(nil)';
  const items = value.map((ref) => {
    const r = isObject(ref) ? ref : {};
    return `v1.OwnerReference{APIVersion:${str(r.apiVersion)}, Kind:${str(r.kind)}, Name:${str(r.name)}, UID:${str(r.uid)}, Controller:${pointer('bool', r.controller)}, BlockOwnerDeletion:${pointer('bool', r.blockOwnerDeletion)}}`;
  });
  return `[]v1.OwnerReference{${items.join(', ')}}`;
}

/** `%#v` of a v1.ObjectMeta value (managedFields are never tracked here, so they print as nil). */
export function goObjectMeta(meta: Readonly<Record<string, unknown>>): GoLiteral {
  const generation = typeof meta.generation === 'number' ? meta.generation : 0;
  const deletion = typeof meta.deletionTimestamp === 'string' ? goTime(meta.deletionTimestamp) : '<nil>';
  const fields = [
    `Name:${str(meta.name)}`,
    `GenerateName:${str(meta.generateName)}`,
    `Namespace:${str(meta.namespace)}`,
    `SelfLink:${str(meta.selfLink)}`,
    `UID:${str(meta.uid)}`,
    `ResourceVersion:${str(meta.resourceVersion)}`,
    `Generation:${generation}`,
    `CreationTimestamp:${goTime(meta.creationTimestamp)}`,
    `DeletionTimestamp:${deletion}`,
    `DeletionGracePeriodSeconds:${pointer('int64', meta.deletionGracePeriodSeconds)}`,
    `Labels:${stringMap(meta.labels)}`,
    `Annotations:${stringMap(meta.annotations)}`,
    `OwnerReferences:${ownerReferences(meta.ownerReferences)}`,
    `Finalizers:${stringSlice(meta.finalizers)}`,
    'ManagedFields:[]v1.ManagedFieldsEntry(nil)',
  ];
  return new GoLiteral(`v1.ObjectMeta{${fields.join(', ')}}`);
}

/** `%#v` of the internal authorization.NonResourceAttributes struct. */
export function goNonResourceAttributes(attributes: Readonly<Record<string, unknown>>): GoLiteral {
  return new GoLiteral(`authorization.NonResourceAttributes{Path:${str(attributes.path)}, Verb:${str(attributes.verb)}}`);
}

/** A string bad value, quoted as Go's %q does. */
export function goString(value: string): GoLiteral {
  return new GoLiteral(goQuote(value));
}
