import { type ActorName, NS_A, NS_B, NS_CANARY, NS_PROBE } from './actors.js';
import { type JsonLike, validObject } from './bodies.js';
import type { Random } from './random.js';
import type { FuzzRequest } from './request.js';
import { intentOf, NAMESPACES, resourcePath, type Target } from './targets.js';
import { HOSTILE_NAMES, pickName, VALID_NAMES } from './values.js';

// What every request generator shares: the names the world keeps, who sends a request, and where it is aimed.

/** Names the world keeps present in namespaces A and B. */
export const SEEDS: Readonly<Record<string, readonly string[]>> = {
  configmaps: ['cm-0', 'cm-1', 'cm-2'],
  secrets: ['s-0'],
  deployments: ['d-0'],
};
export const PROBE_NAMES = ['probe-0', 'probe-1'];
/** Namespaces the admin may create and delete: the ones the run depends on are never among them. */
const ADMIN_NAMESPACE_NAMES = ['fz-tmp-0', 'fz-tmp-1', 'fz-tmp-2'];
/**
 * Hostile names minus dot segments and the empty name: an admin request must not climb out of the namespaces it may
 * wreck, nor turn into a request on a whole collection.
 */
export const ADMIN_HOSTILE_NAMES = HOSTILE_NAMES.filter((n) => !/^\.*$/.test(n));

export interface Shape {
  method: string;
  path: string;
  query?: string[];
  headers?: Record<string, string>;
  body?: Buffer;
  declaredLength?: number;
  chunked?: boolean;
  variant: string;
  intent?: FuzzRequest['intent'];
  probe?: FuzzRequest['probe'];
  /** Set where the query's dryRun does not decide (a DELETE with a body). */
  dryRun?: boolean;
}

export interface Context {
  readonly r: Random;
  readonly actor: ActorName;
}

export function namespaceFor({ r, actor }: Context): string {
  if (actor === 'admin')
    return r.weighted([
      [6, NS_A],
      [3, NS_B],
      [1, r.pick(ADMIN_HOSTILE_NAMES)],
    ]);
  if (actor === 'editor')
    return r.weighted([
      [8, NS_A],
      [1, NS_B],
      [2, NS_CANARY],
      [1, r.pick(HOSTILE_NAMES)],
    ]);
  return r.weighted([
    [4, NS_A],
    [2, NS_B],
    [3, NS_CANARY],
    [1, NS_PROBE],
    [1, 'kube-system'],
    [1, r.pick(HOSTILE_NAMES)],
  ]);
}

export function nameFor(ctx: Context, t: Target): string {
  const { r, actor } = ctx;
  if (t === NAMESPACES) {
    if (actor === 'admin') return r.chance(0.7) ? r.pick(ADMIN_NAMESPACE_NAMES) : r.pick(ADMIN_HOSTILE_NAMES);
    return r.pick([NS_A, NS_B, NS_CANARY, NS_PROBE, 'kube-system', 'default', ...ADMIN_NAMESPACE_NAMES, pickName(r)]);
  }
  const seeds = SEEDS[t.resource];
  if (seeds !== undefined && r.chance(0.7)) return r.pick(seeds);
  if (ctx.actor !== 'admin' && r.chance(0.3)) return r.pick(['canary-0', 'canary-1', 'canary-s', 'canary-d']);
  return actor === 'admin' ? (r.chance(0.6) ? r.pick(VALID_NAMES) : r.pick(ADMIN_HOSTILE_NAMES)) : pickName(r);
}

/** An object to address: for the admin, half the time one of the probe namespace's, under the harness's watch. */
export function objectFor(ctx: Context, t: Target): { namespace: string | undefined; name: string; probe?: FuzzRequest['probe'] } {
  if (ctx.actor === 'admin' && t.kind !== undefined && t !== NAMESPACES && ctx.r.chance(0.5)) {
    const name = ctx.r.pick(PROBE_NAMES);
    return { namespace: NS_PROBE, name, probe: { path: resourcePath(t, NS_PROBE, name), kind: t.kind, name } };
  }
  return { namespace: t.namespaced ? namespaceFor(ctx) : undefined, name: nameFor(ctx, t) };
}

export function baseObject(t: Target, name: string, namespace: string | undefined): { [key: string]: JsonLike } {
  return validObject(t.kind ?? 'ConfigMap', name, t.namespaced ? namespace : undefined);
}

/** A create (POST to the collection) or an update (PUT to the object) of `t`, with the body `bodyFor` makes. */
export function write(ctx: Context, t: Target, bodyFor: (base: { [key: string]: JsonLike }) => { variant: string; body: Buffer }): Shape {
  const { r } = ctx;
  const update = r.chance(0.4);
  const target = objectFor(ctx, t);
  // A create in the probe namespace makes the probed name, so the probe covers what it may write.
  const bodyName = update || target.probe !== undefined ? target.name : nameFor(ctx, t);
  const made = bodyFor(baseObject(t, bodyName, target.namespace));
  const query: string[] = [];
  if (r.chance(0.2)) query.push(`fieldValidation=${r.pick(['Strict', 'Warn', 'Ignore', 'strict', '', 'x'])}`);
  if (r.chance(0.15)) query.push(`dryRun=${r.pick(['All', 'All', 'all', '', 'x'])}`);
  if (r.chance(0.1)) query.push(`fieldManager=${encodeURIComponent(r.pick(['fz', '', 'x'.repeat(129), '\u0000']))}`);
  if (update) {
    return {
      method: 'PUT',
      path: resourcePath(t, target.namespace, target.name),
      query,
      body: made.body,
      variant: `put/${made.variant}`,
      intent: intentOf('PUT', t, target.namespace, target.name),
      probe: target.probe,
    };
  }
  return {
    method: 'POST',
    path: resourcePath(t, target.namespace),
    query,
    body: made.body,
    variant: `post/${made.variant}`,
    intent: intentOf('POST', t, target.namespace),
    probe: target.probe,
  };
}
