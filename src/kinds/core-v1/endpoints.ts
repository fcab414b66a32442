import type { KubeObject } from '../../api/types.js';
import { age, joinHostPort } from '../../tables/cell-format.js';
import { endpointsSubsets } from '../../tables/column-descriptions.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, integer, list, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { defaultEndpoints } from './types/kind-defaults.js';

/** formatEndpoints: up to three "ip:port" (or bare ip for port-less subsets), then "+ N more...". */
function formatEndpoints(obj: KubeObject): string {
  const subsets = list(get(obj, 'subsets'));
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = list(get(subset, 'addresses')).map((address) => text(get(address, 'ip')));
    const ports = list(get(subset, 'ports'));
    const targets = ports.length === 0 ? [undefined] : ports.map((port) => integer(get(port, 'port')));
    for (const port of targets) {
      count += addresses.length;
      for (const ip of addresses) {
        if (shown.length === max) {
          more = true;
          break;
        }
        shown.push(port === undefined ? ip : joinHostPort(ip, port));
      }
    }
  }
  const joined = shown.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

const ENDPOINTS_PRINTER: Printer = {
  style: 'printer',
  columns: [NAME_COLUMN, column('Endpoints', 'string', endpointsSubsets), AGE_COLUMN],
  row: (obj, now) => [obj.metadata.name ?? '', formatEndpoints(obj), age(obj.metadata.creationTimestamp, now)],
};

/** core/v1 Endpoints. */
export const ENDPOINTS: KindDefinition = {
  resource: resourceInfo({ group: '', version: 'v1', kind: 'Endpoints', plural: 'endpoints', namespaced: true, shortNames: ['ep'] }),
  strategy: { defaults: defaultEndpoints },
  printer: ENDPOINTS_PRINTER,
};
