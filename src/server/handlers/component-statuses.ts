import { badRequest, notFound } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { parseFieldSelector } from '../../selectors/field-selector.js';
import { parseLabelSelector } from '../../selectors/label-selector.js';
import { SelectorError } from '../../selectors/selector-error.js';
import type { ResourceRequest } from '../api-context.js';
import { componentStatus, type ComponentProbe } from '../component-probes.js';
import { send, warningHeaders } from '../respond.js';
import { renderList, renderObject } from './transform.js';

/** The warning every request on v1 ComponentStatus carries (the resource is marked deprecated in 1.19). */
const DEPRECATED = 'v1 ComponentStatus is deprecated in v1.19+';

async function statusOf(probe: ComponentProbe): Promise<KubeObject> {
  return componentStatus(probe.name, await probe.probe());
}

function selectors(r: ResourceRequest): (obj: KubeObject) => boolean {
  try {
    const labels = parseLabelSelector(r.query.string('labelSelector') ?? '');
    const fields = parseFieldSelector(r.query.string('fieldSelector') ?? '');
    return (obj) => labels.matches(obj.metadata.labels) && fields.matches({ 'metadata.name': obj.metadata.name ?? '' });
  } catch (err) {
    if (err instanceof SelectorError) throw badRequest(err.message);
    throw err;
  }
}

/**
 * GET /api/v1/componentstatuses[/{name}] (componentstatus REST): every probe is run on each read, concurrently,
 * and nothing is stored; a list is filtered by the label and field (metadata.name) selectors.
 */
export async function handleComponentStatuses(r: ResourceRequest, verb: 'get' | 'list', name: string): Promise<void> {
  const probes = r.ctx.componentProbes ?? [];
  // Set before anything can fail: the deprecation warning comes with errors too.
  for (const [header, value] of Object.entries(warningHeaders([DEPRECATED]))) if (value !== undefined) r.res.setHeader(header, value);
  if (verb === 'get') {
    const probe = probes.find((p) => p.name === name);
    if (probe === undefined) throw notFound({ group: '', resource: 'componentstatus' }, name);
    send(r.res, r.format, 200, renderObject(r, await statusOf(probe)));
    return;
  }
  const matches = selectors(r);
  const items = (await Promise.all(probes.map(statusOf))).filter(matches);
  send(r.res, r.format, 200, renderList(r, { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items }));
}
