import type { PropagationPolicy } from '../api/delete-options.js';
import { badRequest } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { ApiClient } from '../client/interface.js';
import { explain } from '../tools/explain.js';
import { previewDeletion } from '../tools/preview.js';
import type { ExplainAnswer, PreviewAnswer, WhoAmIAnswer } from './model/answer-types.js';
import { renderExplanation } from '../tools/render-explain.js';
import { renderPreview } from '../tools/render-preview.js';
import { ClusterSnapshot } from '../tools/snapshot.js';
import { resolveTarget } from '../tools/target.js';

const POLICIES: readonly PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];

interface Target {
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string;
}

function targetOf(query: URLSearchParams): Target {
  const resource = query.get('resource') ?? '';
  const name = query.get('name') ?? '';
  if (resource === '' || name === '') throw badRequest('resource and name are required');
  const namespace = query.get('namespace') ?? '';
  return { resource, name, namespace: namespace === '' ? undefined : namespace };
}

async function load(client: ApiClient, target: Target) {
  const resources = await client.discover();
  const entry = await resolveTarget(
    client,
    resources,
    { type: target.resource, name: target.name },
    target.namespace ?? '',
    () => undefined,
  );
  return { entry, snapshot: await ClusterSnapshot.load(client, resources) };
}

export async function explainAnswer(client: ApiClient, query: URLSearchParams): Promise<ExplainAnswer> {
  const { entry, snapshot } = await load(client, targetOf(query));
  const document = await explain(snapshot, entry);
  return { document, text: renderExplanation(document) };
}

export async function previewAnswer(client: ApiClient, query: URLSearchParams): Promise<PreviewAnswer> {
  const { entry, snapshot } = await load(client, targetOf(query));
  const previews = [];
  for (const policy of POLICIES) {
    const document = await previewDeletion(snapshot, entry, policy);
    previews.push({ policy, document, text: renderPreview(document, false) });
  }
  return { previews };
}

const SELF_SUBJECT_REVIEWS = { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews' };

/** Who the page's credentials are, as `kubectl auth whoami` asks: a SelfSubjectReview. */
export async function whoAmI(client: ApiClient): Promise<WhoAmIAnswer> {
  const review = (await client.create(SELF_SUBJECT_REVIEWS, undefined, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    metadata: {},
  })) as KubeObject & { status?: { userInfo?: { username?: string; groups?: string[] } } };
  const user = review.status?.userInfo;
  return { username: user?.username ?? '', groups: user?.groups ?? [] };
}
