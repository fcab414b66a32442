import type { KubeObject } from '../../api/types.js';
import { isObject, objects } from '../../api/types.js';
import type { UserInfo } from '../../api/user.js';
import { arrayOf, int32, kindDefinition, listDefinition, ref, str, stringArray } from '../../openapi/builders/group-builders.js';
import { definitionRef, type Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { humanDuration } from '../../tables/human-duration.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import { fieldAt, notSupported, textAttr } from '../define/field-selectors.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo, STATUS } from '../define/resource.js';
import {
  validateCsrApprovalUpdate,
  validateCsrCreate,
  validateCsrStatusUpdate,
  validateCsrUpdate,
} from './certificate-signing-request-validation.js';
import { specOf } from '../../api/json-fields.js';

/** Column descriptions: the swagger docs of the (v1beta1) fields, as the Go printers report them. */
const signerNameDoc =
  'Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it\'s a kubelet client certificate, it is assigned\n    "kubernetes.io/kube-apiserver-client-kubelet".\n 2. If it\'s a kubelet serving certificate, it is assigned\n    "kubernetes.io/kubelet-serving".\n 3. Otherwise, it is assigned "kubernetes.io/legacy-unknown".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.';
const requestDoc = 'Base64-encoded PKCS#10 CSR data';
const expirationSecondsDoc =
  'expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes.';
const conditionsDoc = 'Conditions applied to the request, such as approval or denial.';

const P = 'io.k8s.api.certificates.v1.';

const nowSeconds = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const conditionsOf = (csr: KubeObject): Record<string, unknown>[] => objects(isObject(csr.status) ? csr.status.conditions : undefined);

/** PrepareForCreate: the requester is whoever creates the request, whatever the body claims; no pre-approval. */
function recordRequester(csr: KubeObject, user: UserInfo | undefined): void {
  const spec = specOf(csr);
  for (const field of ['username', 'uid', 'groups', 'extra']) delete spec[field];
  if (user !== undefined) {
    if (user.name !== '') spec.username = user.name;
    if (user.uid !== undefined && user.uid !== '') spec.uid = user.uid;
    if (user.groups.length > 0) spec.groups = [...user.groups];
    if (user.extra !== undefined && Object.keys(user.extra).length > 0) {
      spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
    }
  }
  csr.spec = spec;
}

/** populateConditionTimestamps: unset times become now, or the time the same type and status was last seen. */
function stampConditions(next: KubeObject, old: KubeObject): void {
  const now = nowSeconds();
  const previous = conditionsOf(old);
  for (const c of conditionsOf(next)) {
    if (typeof c.lastUpdateTime !== 'string' || c.lastUpdateTime === '') c.lastUpdateTime = now;
    if (typeof c.lastTransitionTime !== 'string' || c.lastTransitionTime === '') {
      const same = previous.find((p) => p.type === c.type && p.status === c.status && typeof p.lastTransitionTime === 'string');
      c.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
  }
}

/** preserveConditionInstances: /status writers keep Approved and Denied exactly as stored, when their count is unchanged. */
function keepApprovalConditions(next: KubeObject, old: KubeObject): void {
  const conditions = conditionsOf(next);
  for (const type of ['Approved', 'Denied']) {
    const before = conditionsOf(old).filter((c) => c.type === type);
    const positions = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
    if (before.length !== positions.length) continue;
    positions.forEach((position, i) => {
      conditions[position] = structuredClone(before[i] as Record<string, unknown>);
    });
  }
  if (isObject(next.status) && Array.isArray(next.status.conditions)) next.status.conditions = conditions;
}

/** The Condition cell (extractCSRStatus): Denied over Approved over Pending, then Failed and Issued. */
function conditionCell(csr: KubeObject): string {
  const types = new Set(conditionsOf(csr).map((c) => c.type));
  let cell = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) cell += ',Failed';
  const certificate = isObject(csr.status) ? csr.status.certificate : undefined;
  if (typeof certificate === 'string' && certificate !== '') cell += ',Issued';
  return cell;
}

const DEFINITIONS: Definitions = {
  [`${P}CertificateSigningRequest`]: kindDefinition({
    group: 'certificates.k8s.io',
    version: 'v1',
    kind: 'CertificateSigningRequest',
    description: 'CertificateSigningRequest asks a signer for an X.509 certificate; it is approved or denied, then issued.',
    properties: {
      spec: ref(`${P}CertificateSigningRequestSpec`, 'The request and who made it.'),
      status: ref(`${P}CertificateSigningRequestStatus`, 'Approval conditions and the issued certificate.'),
    },
    required: ['spec'],
  }),
  [`${P}CertificateSigningRequestList`]: listDefinition(
    'certificates.k8s.io',
    'v1',
    'CertificateSigningRequest',
    `${P}CertificateSigningRequest`,
  ),
  [`${P}CertificateSigningRequestSpec`]: {
    type: 'object',
    description: 'A PKCS#10 request, the signer asked to sign it, and the requester the apiserver recorded.',
    properties: {
      expirationSeconds: int32('Requested validity of the certificate, at least 600 seconds; the signer may differ.'),
      extra: {
        type: 'object',
        description: 'Extra attributes of the requester, set by the apiserver.',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
      groups: stringArray('Groups of the requester, set by the apiserver.', { 'x-kubernetes-list-type': 'atomic' }),
      request: { type: 'string', format: 'byte', description: 'The PEM CERTIFICATE REQUEST.', 'x-kubernetes-list-type': 'atomic' },
      signerName: str('The signer asked to sign, `<domain>/<path>`.'),
      uid: str('UID of the requester, set by the apiserver.'),
      usages: stringArray('Key usages requested in the certificate.', { 'x-kubernetes-list-type': 'atomic' }),
      username: str('Name of the requester, set by the apiserver.'),
    },
    required: ['request', 'signerName'],
  },
  [`${P}CertificateSigningRequestStatus`]: {
    type: 'object',
    description: 'Approval conditions and the issued certificate.',
    properties: {
      certificate: {
        type: 'string',
        format: 'byte',
        description: 'The issued certificate chain (PEM).',
        'x-kubernetes-list-type': 'atomic',
      },
      conditions: arrayOf(definitionRef(`${P}CertificateSigningRequestCondition`), 'Approved, Denied, Failed and other conditions.', {
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-list-type': 'map',
      }),
    },
  },
  [`${P}CertificateSigningRequestCondition`]: {
    type: 'object',
    description: 'One condition of a request.',
    properties: {
      lastTransitionTime: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'When the status last changed.'),
      lastUpdateTime: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'When the condition was last updated.'),
      message: str('Human-readable details.'),
      reason: str('Machine-readable reason.'),
      status: str('True, False or Unknown; Approved, Denied and Failed are only True.'),
      type: str('Approved, Denied, Failed or another type.'),
    },
    required: ['type', 'status'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}CertificateSigningRequest`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}CertificateSigningRequestList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}CertificateSigningRequestSpec`]: {
    tags: { request: 1, signerName: 7, expirationSeconds: 8, usages: 5, username: 2, uid: 3, groups: 4, extra: 6 },
    pointers: ['expirationSeconds'],
  },
  [`${P}CertificateSigningRequestStatus`]: { tags: { conditions: 1, certificate: 2 } },
  [`${P}CertificateSigningRequestCondition`]: {
    tags: { type: 1, status: 6, reason: 2, message: 3, lastUpdateTime: 4, lastTransitionTime: 5 },
  },
};

/** certificates.k8s.io/v1 CertificateSigningRequest. */
export const CERTIFICATE_SIGNING_REQUEST: KindDefinition = {
  resource: resourceInfo({
    group: 'certificates.k8s.io',
    version: 'v1',
    kind: 'CertificateSigningRequest',
    plural: 'certificatesigningrequests',
    namespaced: false,
    shortNames: ['csr'],
    subresources: [{ name: 'approval', verbs: ['get', 'patch', 'update'] }, STATUS],
  }),
  strategy: {
    initialStatus: () => ({}),
    prepareForCreate: recordRequester,
    // The main resource changes metadata only: spec is fixed at creation, status has its own two writers.
    prepareForUpdate: (next, old) => {
      next.spec = structuredClone(old.spec);
    },
    prepareForStatusUpdate: (next, old) => {
      keepApprovalConditions(next, old);
      stampConditions(next, old);
    },
    subresourceUpdates: {
      approval: {
        // csrApprovalStrategy: everything but the conditions comes from the stored object.
        prepare: (next, old) => {
          const conditions = isObject(next.status) ? next.status.conditions : undefined;
          const status: Record<string, unknown> = structuredClone(isObject(old.status) ? old.status : {});
          if (conditions === undefined) delete status.conditions;
          else status.conditions = conditions;
          for (const key of Object.keys(next)) delete next[key];
          Object.assign(next, structuredClone(old), { status });
          stampConditions(next, old);
        },
        validate: validateCsrApprovalUpdate,
      },
    },
    validate: validateCsrCreate,
    validateUpdate: validateCsrUpdate,
    validateStatusUpdate: validateCsrStatusUpdate,
  },
  // certificates/v1 conversion.go: metadata.name and spec.signerName only (signers watch their own requests).
  fieldSelectors: {
    conversion: { labels: new Set(['metadata.name', 'spec.signerName']), error: notSupported },
    attrs: (csr) => ({ 'spec.signerName': textAttr(fieldAt(csr, 'spec', 'signerName')) }),
  },
  printer: {
    style: 'printer',
    columns: [
      NAME_COLUMN,
      AGE_COLUMN,
      column('SignerName', 'string', signerNameDoc),
      column('Requestor', 'string', requestDoc),
      column('RequestedDuration', 'string', expirationSecondsDoc),
      column('Condition', 'string', conditionsDoc),
    ],
    row: (csr, now) => {
      const spec = specOf(csr);
      const signer = typeof spec.signerName === 'string' && spec.signerName !== '' ? spec.signerName : '<none>';
      const seconds = spec.expirationSeconds;
      const requested = typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
      const requestor = typeof spec.username === 'string' ? spec.username : '';
      return [csr.metadata.name ?? '', age(csr.metadata.creationTimestamp, now), signer, requestor, requested, conditionCell(csr)];
    },
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
