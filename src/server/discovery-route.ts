import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFoundPath } from '../api/errors.js';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryCacheHeaders,
  aggregatedDiscoveryContentType,
  discoveryETag,
  isNotModified,
  negotiateDiscovery,
} from '../discovery/aggregated.js';
import type { AggregatedDiscoveryVersion } from '../discovery/types.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../discovery/legacy.js';
import { mergeAggregatedDiscovery, mergeApiGroup, mergeApiGroupList } from '../aggregator/index.js';
import { priorityOf } from '../discovery/group-order.js';
import type { ApiContext } from './api-context.js';
import type { RequestTarget } from './request-info.js';
import { negotiatedJson, sendJson, sendPageNotFound } from './respond.js';
import { claimedByRestful } from './resource-route.js';

type DiscoveryTarget = Extract<RequestTarget, { type: `discovery-${string}` }>;

/** Aggregated discovery when the client asks for it (R8.8–R8.10), the legacy documents otherwise (R8.1–R8.5). */
function sendAggregated(req: IncomingMessage, res: ServerResponse, body: unknown, version: AggregatedDiscoveryVersion): void {
  const text = JSON.stringify(body);
  const etag = discoveryETag(text);
  const headers = { 'Content-Type': aggregatedDiscoveryContentType(version), ...aggregatedDiscoveryCacheHeaders(etag) };
  if (isNotModified(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  // The ETag hashes json.Marshal's bytes; the body is the serializer's, which ends with a newline.
  const encoded = negotiatedJson(res, body);
  res.writeHead(200, { ...headers, 'Content-Length': Buffer.byteLength(encoded) });
  res.end(encoded);
}

export function routeDiscovery(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, target: DiscoveryTarget): void {
  const resources = ctx.registry.resources();
  const negotiated = negotiateDiscovery(req.headers.accept ?? '');
  // Aggregated APIs join the groups the registry serves; their own /apis/<g>/<v> is proxied, never answered here.
  const remote = ctx.aggregator?.remoteGroupVersions() ?? [];
  switch (target.type) {
    case 'discovery-api':
    case 'discovery-apis': {
      if (negotiated !== 'legacy') {
        const scope = target.type === 'discovery-api' ? 'core' : 'groups';
        const local = aggregatedDiscovery(resources, scope, negotiated);
        sendAggregated(req, res, scope === 'groups' ? mergeAggregatedDiscovery(local, remote, priorityOf) : local, negotiated);
        return;
      }
      if (target.type === 'discovery-api') sendJson(res, 200, apiVersions(req.headers.host ?? ''));
      else sendJson(res, 200, mergeApiGroupList(apiGroupList(resources), remote, priorityOf));
      return;
    }
    case 'discovery-group': {
      const group = mergeApiGroup(apiGroup(resources, target.group), target.group, remote, priorityOf);
      // No handler serves an unknown group: kube-apiserver's last delegate answers it.
      if (group === undefined) {
        sendPageNotFound(res);
        return;
      }
      sendJson(res, 200, group);
      return;
    }
    case 'discovery-version': {
      const list = apiResourceList(resources, target.group, target.version);
      if (list === undefined) {
        if (claimedByRestful(resources, target.group)) throw notFoundPath();
        sendPageNotFound(res);
        return;
      }
      sendJson(res, 200, list);
      return;
    }
  }
}
