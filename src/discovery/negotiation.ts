/**
 * Content negotiation between aggregated and legacy discovery on /api and /apis (R8.8, R8.11), following
 * apiserver's negotiation.NegotiateMediaTypeOptions with the aggregated-discovery endpoint restrictions.
 */

import type { AggregatedDiscoveryVersion } from './types.js';

export type DiscoveryFormat = AggregatedDiscoveryVersion | 'legacy';

const DISCOVERY_GROUP = 'apidiscovery.k8s.io';
const DISCOVERY_KIND = 'APIGroupDiscoveryList';

/** The Content-Type kube-apiserver answers aggregated discovery with (media type plus the negotiated g/v/as). */
export function aggregatedDiscoveryContentType(version: AggregatedDiscoveryVersion): string {
  return `application/json;g=${DISCOVERY_GROUP};v=${version};as=${DISCOVERY_KIND}`;
}

export const AGGREGATED_DISCOVERY_CONTENT_TYPE = aggregatedDiscoveryContentType('v2');
export const AGGREGATED_DISCOVERY_V2BETA1_CONTENT_TYPE = aggregatedDiscoveryContentType('v2beta1');
export const LEGACY_DISCOVERY_CONTENT_TYPE = 'application/json';

/** What Go's strconv.ParseFloat accepts for ordinary q values; anything else parses as q=0 there. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
  readonly params: ReadonlyMap<string, string>;
}

/** Parses an Accept header the way goautoneg.ParseAccept does, including its ordering. */
function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const part of header.split(',')) {
    const [mediaRange = '', ...rawParams] = part.trim().split(';');
    const range = mediaRange.split('/');
    const type = (range[0] ?? '').trim();
    let subType: string;
    if (range.length === 1 && type === '*') subType = '*';
    else if (range.length === 2) subType = (range[1] ?? '').trim();
    else continue;

    let q = 1;
    const params = new Map<string, string>();
    for (const raw of rawParams) {
      const eq = raw.indexOf('=');
      if (eq < 0) continue;
      const key = raw.slice(0, eq).trim();
      const value = raw.slice(eq + 1);
      if (key === 'q') {
        q = DECIMAL.test(value) ? Number(value) : 0;
      } else {
        params.set(key, value.trim());
      }
    }
    clauses.push({ type, subType, q, params });
  }
  // goautoneg's "less" (higher q, or a concrete type/subtype against a wildcard) is not a strict order,
  // so the result depends on the algorithm: Go sorts short slices by insertion sort, reproduced here.
  const less = (a: AcceptClause, b: AcceptClause): boolean =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0; j--) {
      const current = clauses[j];
      const previous = clauses[j - 1];
      if (current === undefined || previous === undefined || !less(current, previous)) break;
      clauses[j] = previous;
      clauses[j - 1] = current;
    }
  }
  return clauses;
}

function acceptsJson(clause: AcceptClause): boolean {
  if (clause.type === '*' && clause.subType === '*') return true;
  return clause.type === 'application' && (clause.subType === 'json' || clause.subType === '*');
}

/** The aggregated version a clause asks for, or undefined when the aggregated endpoint would skip it. */
function aggregatedVersionOf(clause: AcceptClause): AggregatedDiscoveryVersion | undefined {
  const stream = clause.params.get('stream');
  if (stream !== undefined && stream !== '' && stream !== 'watch') return undefined;
  const serverVersion = clause.params.get('sv');
  if (serverVersion !== undefined && serverVersion !== '') return undefined;
  if (clause.params.get('g') !== DISCOVERY_GROUP || clause.params.get('as') !== DISCOVERY_KIND) return undefined;
  const version = clause.params.get('v');
  return version === 'v2' || version === 'v2beta1' ? version : undefined;
}

/**
 * Which discovery document /api or /apis answers for this Accept header: the first clause (in
 * negotiation order) that asks for an aggregated APIGroupDiscoveryList as JSON wins; otherwise legacy.
 * Aggregated requests for YAML or protobuf are answered with legacy JSON, as only JSON is served.
 */
export function negotiateDiscovery(acceptHeader: string | undefined): DiscoveryFormat {
  if (acceptHeader === undefined || acceptHeader === '') return 'legacy';
  for (const clause of parseAccept(acceptHeader)) {
    if (!acceptsJson(clause)) continue;
    const version = aggregatedVersionOf(clause);
    if (version !== undefined) return version;
  }
  return 'legacy';
}
