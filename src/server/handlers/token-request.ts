import { badRequest, conflict, fieldError, invalid } from '../../api/errors.js';
import { isObject, type KubeObject, parseApiVersion } from '../../api/types.js';
import type { BoundObjects } from '../../auth/serviceaccount/claims.js';
import { decodeTypedObject } from '../../decoding/decode-object.js';
import { definitionRef } from '../../openapi/schema.js';
import { decodeKubernetesProtobuf, KUBERNETES_PROTOBUF_MEDIA_TYPE, ProtobufDecodeError } from '../../protobuf/decode.js';
import type { ResourceRequest } from '../api-context.js';
import { parseBodyWithStrictErrors, readBody } from '../body.js';
import { send, warningHeaders } from '../respond.js';
import { fieldValidationMode } from './decode-input.js';
import { API_AUDIENCES } from './reviews/authentication-review.js';

const GROUP = 'authentication.k8s.io';
const API_VERSION = `${GROUP}/v1`;
const KIND = 'TokenRequest';
const DEFINITION = 'io.k8s.api.authentication.v1.TokenRequest';
const QUALIFIED_KIND = `${KIND}.${GROUP}`;

/** SetDefaults_TokenRequestSpec: an hour. */
const DEFAULT_EXPIRATION_SECONDS = 3600;
/** ValidateTokenRequest's bounds: ten minutes to 2^32 seconds. */
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** The duration the ServiceAccount admission puts in projected volumes; such a pod-bound token lives a year, warning after this. */
const WARN_ONLY_EXPIRATION_SECONDS = 3607;
const EXTENDED_EXPIRATION_SECONDS = 365 * 24 * 3600;

const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

async function readTokenRequest(r: ResourceRequest, warnings: string[]): Promise<Record<string, unknown>> {
  const body = await readBody(r.req);
  if (body.length === 0) throw badRequest('the request body is empty');
  const contentType = r.req.headers['content-type'];
  let raw: unknown;
  let strictErrors: readonly string[] = [];
  if (contentType?.split(';')[0]?.trim() === KUBERNETES_PROTOBUF_MEDIA_TYPE) {
    try {
      raw = decodeKubernetesProtobuf(body, r.ctx.definitions, { apiVersion: API_VERSION, kind: KIND });
    } catch (err) {
      if (err instanceof ProtobufDecodeError) throw err.forExpectedKind(KIND, body);
      throw err;
    }
  } else {
    const parsed = await parseBodyWithStrictErrors(body, contentType, KIND);
    raw = parsed.value;
    strictErrors = parsed.strictErrors;
  }
  if (!isObject(raw)) throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  const apiVersion = raw.apiVersion ?? API_VERSION;
  const kind = raw.kind ?? KIND;
  if (apiVersion !== API_VERSION || kind !== KIND) {
    throw badRequest(
      `${String(kind)} in version "${String(apiVersion)}" cannot be handled as a ${KIND}: no kind "${String(kind)}" is registered`,
    );
  }
  const decoded = decodeTypedObject(
    { ...raw, apiVersion, kind },
    definitionRef(DEFINITION),
    r.ctx.definitions,
    fieldValidationMode(r),
    {
      kind: KIND,
      version: 'v1',
    },
    strictErrors,
  );
  warnings.push(...decoded.warnings);
  return decoded.object as Record<string, unknown>;
}

async function getCore(r: ResourceRequest, plural: string, namespace: string | undefined, name: string): Promise<KubeObject> {
  const store = r.ctx.registry.lookup('', 'v1', plural);
  if (store === undefined) throw new Error(`core/v1 ${plural} is not served`);
  return store.get(namespace, name);
}

/** The objects the token is bound to, checked as TokenREST checks them (kind, existence, service account, uid). */
async function boundObjects(r: ResourceRequest, account: string, namespace: string, ref: Record<string, unknown>): Promise<BoundObjects> {
  const kind = typeof ref.kind === 'string' ? ref.kind : '';
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  const name = typeof ref.name === 'string' ? ref.name : '';
  const { group, version } = parseApiVersion(apiVersion);
  let bound: BoundObjects;
  let uid: string;
  if (group === '' && kind === 'Pod') {
    const pod = await getCore(r, 'pods', namespace, name);
    const spec = isObject(pod.spec) ? pod.spec : {};
    if (spec.serviceAccountName !== account) {
      throw badRequest(`cannot bind token for serviceaccount "${account}" to pod running with different serviceaccount name.`);
    }
    uid = pod.metadata.uid ?? '';
    // The pod's node goes into the claims too (ServiceAccountTokenPodNodeInfo), with its uid while it exists.
    const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
    const node = nodeName === '' ? undefined : await getCore(r, 'nodes', undefined, nodeName).catch(() => undefined);
    bound = { pod: { name, uid }, ...(nodeName === '' ? {} : { node: { name: nodeName, uid: node?.metadata.uid } }) };
  } else if (group === '' && kind === 'Secret') {
    uid = (await getCore(r, 'secrets', namespace, name)).metadata.uid ?? '';
    bound = { secret: { name, uid } };
  } else if (group === '' && kind === 'Node') {
    uid = (await getCore(r, 'nodes', undefined, name)).metadata.uid ?? '';
    bound = { node: { name, uid } };
  } else {
    throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  if (typeof ref.uid === 'string' && ref.uid !== '' && ref.uid !== uid) {
    throw conflict(
      { group, resource: kind },
      name,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return bound;
}

/**
 * POST .../serviceaccounts/{name}/token (kubectl create token): a signed token for the service account, for the
 * audiences asked for (the API server's by default), expiring after spec.expirationSeconds, optionally bound to a
 * pod, secret or node. Nothing is stored.
 */
export async function handleTokenRequest(r: ResourceRequest, name: string): Promise<void> {
  const namespace = r.namespace ?? '';
  const warnings: string[] = [];
  const request = await readTokenRequest(r, warnings);
  const meta = isObject(request.metadata) ? request.metadata : {};
  if (typeof meta.name === 'string' && meta.name !== '' && meta.name !== name) {
    throw invalid(QUALIFIED_KIND, GROUP, KIND, name, [
      fieldError.invalid('metadata.name', meta.name, 'must match the service account name if specified'),
    ]);
  }
  if (typeof meta.namespace === 'string' && meta.namespace !== '' && meta.namespace !== namespace) {
    throw invalid(QUALIFIED_KIND, GROUP, KIND, name, [
      fieldError.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified'),
    ]);
  }
  const account = await getCore(r, 'serviceaccounts', namespace, name);
  const spec = isObject(request.spec) ? request.spec : {};
  const requestedAudiences = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
  const audiences = requestedAudiences.length > 0 ? requestedAudiences : [...API_AUDIENCES];
  const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : DEFAULT_EXPIRATION_SECONDS;
  if (expirationSeconds < MIN_EXPIRATION_SECONDS || expirationSeconds > MAX_EXPIRATION_SECONDS) {
    const detail =
      expirationSeconds < MIN_EXPIRATION_SECONDS
        ? 'may not specify a duration less than 10 minutes'
        : 'may not specify a duration larger than 2^32 seconds';
    throw invalid(QUALIFIED_KIND, GROUP, KIND, '', [fieldError.invalid('spec.expirationSeconds', expirationSeconds, detail)]);
  }
  const now = r.ctx.clock();
  const boundRef = isObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
  const bound = boundRef === undefined ? {} : await boundObjects(r, name, namespace, boundRef);
  // --service-account-extend-token-expiration (on by default): the admission's pod tokens outlive their stated hour.
  const extend =
    bound.pod !== undefined && expirationSeconds === WARN_ONLY_EXPIRATION_SECONDS && audiences.every((a) => API_AUDIENCES.includes(a));
  const token = r.ctx.serviceAccountTokens.issue({
    namespace,
    serviceAccount: { name, uid: account.metadata.uid ?? '' },
    bound,
    audiences,
    expirationSeconds: extend ? EXTENDED_EXPIRATION_SECONDS : expirationSeconds,
    warnAfterSeconds: extend ? expirationSeconds : 0,
    now,
  });
  const response = {
    kind: KIND,
    apiVersion: API_VERSION,
    metadata: { name, namespace, creationTimestamp: rfc3339(now) },
    spec: { audiences, expirationSeconds, ...(boundRef === undefined ? {} : { boundObjectRef: boundRef }) },
    status: { token, expirationTimestamp: rfc3339(new Date(now.getTime() + expirationSeconds * 1000)) },
  };
  send(r.res, r.format, 201, response, warningHeaders(warnings));
}
