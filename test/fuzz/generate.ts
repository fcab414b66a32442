import type { Actor, ActorName } from './actors.js';
import { jsonBody, mediaType, metadataValues, oversize, yamlBody } from './generate-bodies.js';
import type { Context, Shape } from './generate-context.js';
import { pathTricks, query } from './generate-urls.js';
import { deleteOptions, patch, rbac } from './generate-verbs.js';
import { Random } from './random.js';
import type { Category, FuzzRequest } from './request.js';

// Turns (seed, index) into one hostile request. Everything about request i depends on the seed and i alone, so a
// failure is replayed by regenerating its index.

const CATEGORY_WEIGHTS: readonly (readonly [number, Category])[] = [
  [14, 'json-body'],
  [8, 'yaml-body'],
  [8, 'media-type'],
  [3, 'oversize'],
  [12, 'meta'],
  [14, 'query'],
  [16, 'patch'],
  [10, 'path'],
  [8, 'delete'],
  [7, 'rbac'],
];

function pickActor(r: Random, category: Category): ActorName {
  // Content is only parsed once authorization passes: most content requests come from users allowed to make them.
  const content: readonly (readonly [number, ActorName])[] = [
    [45, 'admin'],
    [35, 'editor'],
    [8, 'reader'],
    [6, 'nobody'],
    [3, 'anonymous'],
    [3, 'bad-token'],
  ];
  const access: readonly (readonly [number, ActorName])[] = [
    [10, 'admin'],
    [35, 'editor'],
    [20, 'reader'],
    [15, 'nobody'],
    [12, 'anonymous'],
    [8, 'bad-token'],
  ];
  return r.weighted(category === 'path' || category === 'rbac' ? access : content);
}

const GENERATORS: Readonly<Record<Category, (ctx: Context) => Shape>> = {
  'json-body': jsonBody,
  'yaml-body': yamlBody,
  'media-type': mediaType,
  oversize,
  meta: metadataValues,
  query,
  patch,
  path: pathTricks,
  delete: deleteOptions,
  rbac,
};

/** Request `index` of the run seeded with `seed`. */
export function generateRequest(seed: number, index: number, actorsByName: ReadonlyMap<ActorName, Actor>): FuzzRequest {
  const r = Random.forRequest(seed, index);
  const category = r.weighted(CATEGORY_WEIGHTS);
  const actorName = pickActor(r, category);
  const shape = GENERATORS[category]({ r, actor: actorName });
  const actor = actorsByName.get(actorName);
  const headers: Record<string, string> = { Accept: 'application/json', ...shape.headers };
  if (actor?.token !== undefined) headers.Authorization = `Bearer ${actor.token}`;
  const query = shape.query ?? [];
  const path = query.length === 0 ? shape.path : `${shape.path}${shape.path.includes('?') ? '&' : '?'}${query.join('&')}`;
  return {
    index,
    category,
    variant: shape.variant,
    actor: actorName,
    method: shape.method,
    path,
    headers,
    body: shape.body,
    declaredLength: shape.declaredLength,
    chunked: shape.chunked,
    intent: shape.intent,
    probe: actorName === 'admin' ? shape.probe : undefined,
    dryRun: shape.dryRun ?? (shape.method === 'DELETE' && (shape.body?.length ?? 0) > 0 ? false : query.includes('dryRun=All')),
  };
}
