import { type FieldError, fieldError, GoLiteral } from '../../api/errors.js';
import { isObject, type KubeObject, objects } from '../../api/types.js';
import { firstPemBlock, parseCertificateRequest } from '../../pki/certificate-request.js';
import { goQuote } from '../../util/go-quote.js';
import { isDns1123Label, isDns1123Subdomain } from '../../validation/names.js';
import { isDeepStrictEqual } from 'node:util';
import { X509Certificate } from 'node:crypto';
import { text } from '../../api/json-fields.js';

/** pkg/apis/certificates/validation (Kubernetes 1.32): the create rules and the three update paths' rules. */

const KEY_USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];
const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';
/** Condition types that may only be True. */
const TRUE_ONLY = ['Approved', 'Denied', 'Failed'];
const SUBDOMAIN_MAX = 253;
const LABEL_MAX = 63;

type Spec = Record<string, unknown>;
const specOf = (csr: KubeObject): Spec => (isObject(csr.spec) ? csr.spec : {});
const statusOf = (csr: KubeObject): Spec => (isObject(csr.status) ? csr.status : {});
const conditionsOf = (csr: KubeObject): Record<string, unknown>[] => objects(statusOf(csr).conditions);
const decode = (base64: unknown): Buffer => Buffer.from(text(base64), 'base64');

/** What a write path may do, and what existing data it must tolerate (getValidationOptions). */
interface Options {
  readonly settingApproval: boolean;
  readonly settingCertificate: boolean;
  readonly bothApprovedAndDenied: boolean;
  readonly legacySigner: boolean;
  readonly duplicateConditionTypes: boolean;
  readonly emptyConditionType: boolean;
  readonly arbitraryCertificate: boolean;
  readonly unknownUsages: boolean;
  readonly duplicateUsages: boolean;
}

const hasDuplicates = (values: readonly string[]): boolean => new Set(values).size !== values.length;
const typesOf = (csr: KubeObject): string[] => conditionsOf(csr).map((c) => text(c.type));
const usagesOf = (csr: KubeObject): string[] => (Array.isArray(specOf(csr).usages) ? (specOf(csr).usages as unknown[]).map(text) : []);

function optionsFor(next: KubeObject, old: KubeObject | undefined, path: { approval?: boolean; status?: boolean } = {}): Options {
  const oldTypes = old === undefined ? [] : typesOf(old);
  return {
    settingApproval: path.approval === true,
    settingCertificate: path.status === true,
    bothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    legacySigner: old !== undefined && specOf(old).signerName === LEGACY_UNKNOWN_SIGNER,
    duplicateConditionTypes: hasDuplicates(oldTypes),
    emptyConditionType: oldTypes.includes(''),
    arbitraryCertificate:
      old !== undefined && (text(statusOf(next).certificate) === text(statusOf(old).certificate) || certificateProblem(old) !== undefined),
    unknownUsages: old !== undefined && usagesOf(old).some((u) => !KEY_USAGES.includes(u)),
    duplicateUsages: old !== undefined && hasDuplicates(usagesOf(old)),
  };
}

/** Go's %#v of a byte slice, the value Kubernetes reports for a bad request. */
const byteSlice = (bytes: Buffer): GoLiteral => new GoLiteral(`[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`);

/** validateCSR: a PEM CERTIFICATE REQUEST whose self-signature verifies. */
function requestProblem(request: Buffer): string | undefined {
  const block = firstPemBlock(request.toString('latin1'));
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    parseCertificateRequest(block.der);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** validateCertificate: empty, or only CERTIFICATE blocks without headers, each a parseable certificate. */
function certificateProblem(csr: KubeObject): string | undefined {
  let pem = decode(statusOf(csr).certificate).toString('latin1');
  if (pem === '') return undefined;
  let blocks = 0;
  for (;;) {
    const block = firstPemBlock(pem);
    if (block === undefined) break;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${goQuote(block.type)}`;
    if (block.hasHeaders) return 'no PEM block headers are permitted';
    blocks++;
    try {
      new X509Certificate(block.der);
    } catch {
      return 'x509: malformed certificate';
    }
    pem = pem.slice(pem.indexOf(`-----END ${block.type}-----`) + `-----END ${block.type}-----`.length);
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/** ValidateSignerName (core validation): `<domain>/<path>`, a dotted domain of labels and a path of subdomains. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName === '') return [fieldError.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [fieldError.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain = '', rest = ''] = segments;
  const errs: FieldError[] = [];
  if (domain.length > SUBDOMAIN_MAX) errs.push(fieldError.tooLong(path, SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const problems = isDns1123Label(label);
    if (problems.length === 0) continue;
    for (const msg of problems) errs.push(fieldError.invalid(path, domain, `validating label ${goQuote(label)}: ${msg}`));
    break;
  }
  if (domainLabels.length < 2)
    errs.push(fieldError.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const problems = isDns1123Subdomain(label);
    if (problems.length === 0) continue;
    for (const msg of problems) errs.push(fieldError.invalid(path, rest, `validating label ${goQuote(label)}: ${msg}`));
    break;
  }
  const maxLength = SUBDOMAIN_MAX + (SUBDOMAIN_MAX + LABEL_MAX + 1) + 1;
  if (signerName.length > maxLength) errs.push(fieldError.tooLong(path, maxLength));
  return errs;
}

function validateConditions(csr: KubeObject, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    const type = text(c.type);
    const status = text(c.status);
    if (!opts.emptyConditionType && type === '') errs.push(fieldError.required(`${path}.type`));
    const allowed = TRUE_ONLY.includes(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (status === '') errs.push(fieldError.required(`${path}.status`));
    else if (!allowed.includes(status)) errs.push(fieldError.notSupported(`${path}.status`, status, allowed));
    if (!opts.bothApprovedAndDenied) {
      if (type === 'Approved') {
        approved = true;
        if (denied) errs.push(fieldError.invalid(`${path}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        denied = true;
        if (approved) errs.push(fieldError.invalid(`${path}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.duplicateConditionTypes) {
      if (seen.has(type)) errs.push(fieldError.duplicate(`${path}.type`, type));
      seen.add(type);
    }
  });
  return errs;
}

function validateObject(csr: KubeObject, opts: Options): FieldError[] {
  const spec = specOf(csr);
  const errs: FieldError[] = [];
  const request = decode(spec.request);
  const problem = requestProblem(request);
  if (problem !== undefined) errs.push(fieldError.invalid('spec.request', byteSlice(request), problem));
  const usages = usagesOf(csr);
  if (usages.length === 0) errs.push(fieldError.required('spec.usages'));
  if (!opts.unknownUsages) {
    usages.forEach((u, i) => {
      if (!KEY_USAGES.includes(u)) errs.push(fieldError.notSupported(`spec.usages[${i}]`, u, KEY_USAGES));
    });
  }
  if (!opts.duplicateUsages) {
    usages.forEach((u, i) => {
      if (usages.indexOf(u) < i) errs.push(fieldError.duplicate(`spec.usages[${i}]`, u));
    });
  }
  const signerName = text(spec.signerName);
  if (!opts.legacySigner && signerName === LEGACY_UNKNOWN_SIGNER) {
    errs.push(fieldError.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName('spec.signerName', signerName));
  }
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(
      fieldError.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'),
    );
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.arbitraryCertificate) {
    const why = certificateProblem(csr);
    if (why !== undefined) errs.push(fieldError.invalid('status.certificate', '<certificate data>', why));
  }
  return errs;
}

/** ValidateCertificateSigningRequestCreate. */
export const validateCsrCreate = (csr: KubeObject): FieldError[] => validateObject(csr, optionsFor(csr, undefined));

/** validateCertificateSigningRequestUpdate, shared by the main resource, /status and /approval. */
function validateUpdate(next: KubeObject, old: KubeObject, opts: Options): FieldError[] {
  const errs = validateObject(next, opts);
  const find = (csr: KubeObject, type: string): Record<string, unknown>[] => conditionsOf(csr).filter((c) => c.type === type);
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (find(next, type).length < find(old, type).length) {
      errs.push(fieldError.forbidden('status.conditions', `updates may not remove a condition of type ${goQuote(type)}`));
    }
  }
  if (!opts.settingApproval) {
    for (const type of ['Approved', 'Denied']) {
      const before = find(old, type);
      const after = find(next, type);
      if (after.length > before.length) {
        errs.push(fieldError.forbidden('status.conditions', `updates may not add a condition of type ${goQuote(type)}`));
      } else if (after.length === before.length && !isDeepStrictEqual(after, before)) {
        // Go appends a go-cmp diff of the two condition lists, which has no stable text to reproduce.
        errs.push(fieldError.forbidden('status.conditions', `updates may not modify a condition of type ${goQuote(type)}`));
      }
    }
  }
  if (text(statusOf(next).certificate) !== text(statusOf(old).certificate)) {
    if (!opts.settingCertificate) errs.push(fieldError.forbidden('status.certificate', 'updates may not set certificate content'));
    else if (text(statusOf(old).certificate) !== '') {
      errs.push(fieldError.forbidden('status.certificate', 'updates may not modify existing certificate content'));
    }
  }
  return errs;
}

export const validateCsrUpdate = (next: KubeObject, old: KubeObject): FieldError[] => validateUpdate(next, old, optionsFor(next, old));
export const validateCsrStatusUpdate = (next: KubeObject, old: KubeObject): FieldError[] =>
  validateUpdate(next, old, optionsFor(next, old, { status: true }));
export const validateCsrApprovalUpdate = (next: KubeObject, old: KubeObject): FieldError[] =>
  validateUpdate(next, old, optionsFor(next, old, { approval: true }));
