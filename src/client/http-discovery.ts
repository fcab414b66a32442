import { StatusError } from '../api/errors.js';
import { ALL_VERBS, type ResourceInfo, type SubresourceInfo, type Verb } from '../api/resource-info.js';
import type { GroupVersionKind } from '../api/types.js';
import {
  AGGREGATED_DISCOVERY_CONTENT_TYPE,
  AGGREGATED_DISCOVERY_V2BETA1_CONTENT_TYPE,
  LEGACY_DISCOVERY_CONTENT_TYPE,
} from '../discovery/negotiation.js';
import type {
  APIGroupDiscoveryList,
  APIGroupList,
  APIResource,
  APIResourceDiscovery,
  APIResourceList,
  APIVersions,
} from '../discovery/types.js';
import type { HttpResponse, RequestSpec } from './http-transport.js';

/** A group-version discovery could not read; the rest of discovery still succeeded (R8.13, R8.16). */
export interface DiscoveryFailure {
  /** "v1", "metrics.k8s.io/v1beta1". */
  readonly groupVersion: string;
  readonly error: Error;
}

export interface DiscoveryResult {
  readonly resources: ResourceInfo[];
  readonly failures: DiscoveryFailure[];
}

type Get = (spec: RequestSpec) => Promise<HttpResponse>;

/** What client-go 1.32 asks for on /api and /apis: aggregated v2, then v2beta1, then legacy (R8.11). */
const DISCOVERY_ACCEPT = `${AGGREGATED_DISCOVERY_CONTENT_TYPE},${AGGREGATED_DISCOVERY_V2BETA1_CONTENT_TYPE},${LEGACY_DISCOVERY_CONTENT_TYPE}`;

/** kubectl's summary line for partial discovery failures, sorted by group-version (R8.16). */
export function describeDiscoveryFailures(failures: readonly DiscoveryFailure[]): string {
  const parts = [...failures]
    .sort((a, b) => (a.groupVersion < b.groupVersion ? -1 : a.groupVersion > b.groupVersion ? 1 : 0))
    .map((f) => `${f.groupVersion}: ${f.error.message}`);
  return `unable to retrieve the complete list of server APIs: ${parts.join(', ')}`;
}

function isAggregated(contentType: string): boolean {
  const params = new Map<string, string>();
  const [mediaType = '', ...rest] = contentType.split(';');
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const version = params.get('v');
  return (
    mediaType.trim().toLowerCase() === 'application/json' &&
    params.get('g') === 'apidiscovery.k8s.io' &&
    params.get('as') === 'APIGroupDiscoveryList' &&
    (version === 'v2' || version === 'v2beta1')
  );
}

function json<T>(res: HttpResponse): T {
  return JSON.parse(res.body.toString('utf8')) as T;
}

function verbsOf(verbs: readonly string[] | undefined): Verb[] {
  return (verbs ?? []).filter((v): v is Verb => (ALL_VERBS as readonly string[]).includes(v));
}

/**
 * Discovery carries no name rules or OpenAPI definition names: the common DNS subdomain rule and an empty
 * definition stand in for them, and nothing read over HTTP is treated as a custom resource.
 */
function resourceInfo(fields: Omit<ResourceInfo, 'listKind' | 'nameFormat' | 'definition' | 'custom'>): ResourceInfo {
  return { ...fields, listKind: `${fields.kind}List`, nameFormat: 'dns1123-subdomain', definition: '', custom: false };
}

/** A subresource names its response kind only where it differs from the parent's (Scale, Eviction, ...). */
function subresource(
  name: string,
  verbs: readonly string[] | undefined,
  parent: GroupVersionKind,
  kind: Partial<GroupVersionKind>,
): SubresourceInfo {
  const sub: { -readonly [K in keyof SubresourceInfo]: SubresourceInfo[K] } = { name, verbs: verbsOf(verbs) };
  // kube-apiserver leaves the response group and version empty when they are the parent's.
  const sameGroupVersion = kind.version === undefined || kind.version === '';
  const group = sameGroupVersion ? parent.group : (kind.group ?? '');
  const version = sameGroupVersion ? parent.version : (kind.version ?? '');
  if (kind.kind !== undefined && kind.kind !== '' && (kind.kind !== parent.kind || group !== parent.group || version !== parent.version)) {
    sub.group = group;
    sub.version = version;
    sub.kind = kind.kind;
  }
  return sub;
}

function fromAggregated(list: APIGroupDiscoveryList, failures: DiscoveryFailure[]): ResourceInfo[] {
  const infos: ResourceInfo[] = [];
  for (const item of list.items) {
    const group = item.metadata.name ?? '';
    for (const version of item.versions) {
      const groupVersion = group === '' ? version.version : `${group}/${version.version}`;
      if (version.freshness === 'Stale') {
        failures.push({ groupVersion, error: new Error(`stale GroupVersion discovery: ${groupVersion}`) });
        continue;
      }
      for (const r of version.resources ?? []) infos.push(aggregatedResource(group, version.version, r));
    }
  }
  return infos;
}

function aggregatedResource(group: string, version: string, r: APIResourceDiscovery): ResourceInfo {
  const kind = r.responseKind?.kind ?? '';
  const parent: GroupVersionKind = { group, version, kind };
  return resourceInfo({
    group,
    version,
    kind,
    plural: r.resource,
    singular: r.singularResource,
    namespaced: r.scope === 'Namespaced',
    verbs: verbsOf(r.verbs),
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    subresources: (r.subresources ?? []).map((s) => subresource(s.subresource, s.verbs, parent, s.responseKind ?? {})),
  });
}

/** An APIResourceList lists subresources as "parent/sub" entries of their own (R8.7); fold them into their parents. */
function fromResourceList(group: string, version: string, list: APIResourceList): ResourceInfo[] {
  const parents = list.resources.filter((r) => !r.name.includes('/'));
  const subs = list.resources.filter((r) => r.name.includes('/'));
  return parents.map((r: APIResource) => {
    const parent: GroupVersionKind = { group, version, kind: r.kind };
    return resourceInfo({
      group,
      version,
      kind: r.kind,
      plural: r.name,
      singular: r.singularName !== '' ? r.singularName : r.kind.toLowerCase(),
      namespaced: r.namespaced,
      verbs: verbsOf(r.verbs),
      shortNames: r.shortNames ?? [],
      categories: r.categories ?? [],
      subresources: subs
        .filter((s) => s.name.startsWith(`${r.name}/`))
        .map((s) => subresource(s.name.slice(r.name.length + 1), s.verbs, parent, { group: s.group, version: s.version, kind: s.kind })),
    });
  });
}

async function legacyGroupVersion(get: Get, group: string, version: string, failures: DiscoveryFailure[]): Promise<ResourceInfo[]> {
  const groupVersion = group === '' ? version : `${group}/${version}`;
  const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  try {
    return fromResourceList(group, version, json<APIResourceList>(await get({ method: 'GET', path })));
  } catch (err) {
    failures.push({ groupVersion, error: err instanceof Error ? err : new Error(String(err)) });
    return [];
  }
}

/**
 * Discovery the way client-go does it: aggregated documents from /api and /apis when the server answers both
 * with them, else the legacy documents and every group-version in parallel. /api answering 404 means no core
 * group; a failing /apis fails discovery; failing group-versions are collected, not fatal (R8.12–R8.16).
 */
export async function discoverResources(get: Get): Promise<DiscoveryResult> {
  const failures: DiscoveryFailure[] = [];
  let core: HttpResponse | undefined;
  try {
    core = await get({ method: 'GET', path: '/api', accept: DISCOVERY_ACCEPT });
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
  }
  const groups = await get({ method: 'GET', path: '/apis', accept: DISCOVERY_ACCEPT });
  const coreAggregated = core === undefined || isAggregated(core.contentType);
  if (coreAggregated && isAggregated(groups.contentType)) {
    const resources = core === undefined ? [] : fromAggregated(json<APIGroupDiscoveryList>(core), failures);
    resources.push(...fromAggregated(json<APIGroupDiscoveryList>(groups), failures));
    return { resources, failures };
  }
  // Either answer may be aggregated here; the legacy documents are fetched again explicitly.
  const legacyCore = core === undefined ? undefined : isAggregated(core.contentType) ? await get({ method: 'GET', path: '/api' }) : core;
  const legacyGroups = isAggregated(groups.contentType) ? await get({ method: 'GET', path: '/apis' }) : groups;
  const coreVersions = legacyCore === undefined ? [] : json<APIVersions>(legacyCore).versions;
  const groupVersions = json<APIGroupList>(legacyGroups).groups.flatMap((g) =>
    g.versions.map((v) => ({ group: g.name, version: v.version })),
  );
  const lists = await Promise.all([
    ...coreVersions.map((version) => legacyGroupVersion(get, '', version, failures)),
    ...groupVersions.map(({ group, version }) => legacyGroupVersion(get, group, version, failures)),
  ]);
  return { resources: lists.flat(), failures };
}
