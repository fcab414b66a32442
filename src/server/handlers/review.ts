import { badRequest, methodNotAllowedRoute } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import type { ResourceRequest } from '../api-context.js';
import { send, warningHeaders } from '../respond.js';
import { readObjectBody } from './decode-input.js';
import { answerAccessReview } from './reviews/access-review.js';
import { answerSelfSubjectReview, answerTokenReview } from './reviews/authentication-review.js';
import { answerRulesReview } from './reviews/rules-review.js';
import { renderObject } from './transform.js';

/** Review creates change nothing, so a dry run is answered like any other; only the value is checked. */
function checkDryRun(r: ResourceRequest): void {
  const values = r.query.dryRun();
  for (const v of values) {
    if (v !== 'All') throw badRequest(`Invalid dry run value: ${JSON.stringify(values)}; supported values: "All"`);
  }
}

function answer(r: ResourceRequest, obj: KubeObject): KubeObject | Promise<KubeObject> {
  const kind = r.store.info.kind;
  switch (kind) {
    case 'SubjectAccessReview':
    case 'LocalSubjectAccessReview':
    case 'SelfSubjectAccessReview':
      return answerAccessReview(kind, obj, r.user, r.ctx.authorizer);
    case 'SelfSubjectRulesReview':
      return answerRulesReview(obj, r.user, r.ctx.authorizer);
    case 'SelfSubjectReview':
      return answerSelfSubjectReview(obj, r.user, r.ctx.clock());
    case 'TokenReview':
      return answerTokenReview(obj, r.ctx.authenticateToken);
    default:
      throw methodNotAllowedRoute();
  }
}

/**
 * POST on a review resource (authorization.k8s.io access and rules reviews, authentication.k8s.io token and
 * self-subject reviews): the body is decoded like any create (JSON or protobuf, kind and namespace checks),
 * answered from the authorizer or authenticator, and returned with 201 Created. Nothing is stored.
 */
export async function handleReview(r: ResourceRequest): Promise<void> {
  checkDryRun(r);
  const warnings: string[] = [];
  const obj = await readObjectBody(r, warnings);
  send(r.res, r.format, 201, renderObject(r, await answer(r, obj)), warningHeaders(warnings));
}
