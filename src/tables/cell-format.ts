import { asLabelSelectorObject, labelSelectorAsSelector } from '../selectors/label-selector-object.js';
import { humanDuration } from './human-duration.js';
import { get, list, stringMap, text, timestamp } from './object-fields.js';
import { byCodeUnit } from '../util/by-code-unit.js';

/** translateTimestampSince: "<unknown>" for an unset time, else the human age relative to `now`. */
export function age(value: unknown, now: Date): string {
  const at = timestamp(value);
  return at === undefined ? '<unknown>' : humanDuration(now.getTime() - at);
}

/** labels.FormatLabels: sorted `k=v` pairs, "<none>" when empty. */
export function formatLabels(value: unknown): string {
  const labels = stringMap(value);
  const text = Object.keys(labels)
    .sort(byCodeUnit)
    .map((key) => `${key}=${labels[key]}`)
    .join(',');
  return text === '' ? '<none>' : text;
}

/** metav1.FormatLabelSelector: "<error>" if unconvertible, "<none>" if it selects without requirements. */
export function formatLabelSelector(value: unknown): string {
  try {
    const formatted = labelSelectorAsSelector(asLabelSelectorObject(value)).toString();
    return formatted === '' ? '<none>' : formatted;
  } catch {
    return '<error>';
  }
}

/** The Deployment printer's own variant: "<invalid>" if unconvertible, "" when empty. */
export function deploymentSelector(value: unknown): string {
  try {
    return labelSelectorAsSelector(asLabelSelectorObject(value)).toString();
  } catch {
    return '<invalid>';
  }
}

/** layoutContainerCells: comma-joined container names and images. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = list(get(podSpec, 'containers'));
  return [
    containers.map((container) => text(get(container, 'name'))).join(','),
    containers.map((container) => text(get(container, 'image'))).join(','),
  ];
}

const ACCESS_MODES: readonly [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** helper.GetAccessModesAsString: fixed order, duplicates collapsed. */
export function accessModes(value: unknown): string {
  const modes = new Set(list(value).map(text));
  return ACCESS_MODES.filter(([mode]) => modes.has(mode))
    .map(([, short]) => short)
    .join(',');
}

/** listWithMoreString: at most three entries, then "+ N more...", "<unset>" when empty. */
export function listWithMore(items: readonly string[], max = 3): string {
  const shown = items.slice(0, max).join(',');
  if (items.length > max) return `${shown} + ${items.length - max} more...`;
  return shown === '' ? '<unset>' : shown;
}

/** net.JoinHostPort: brackets around hosts containing a colon (IPv6). */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
