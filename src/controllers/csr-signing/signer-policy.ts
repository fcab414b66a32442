import { AsnConvert } from '@peculiar/asn1-schema';
import { SubjectAlternativeName, id_ce_subjectAltName } from '@peculiar/asn1-x509';
import type { CertificateRequest } from '../../pki/certificate-request.js';

/** The Kubernetes signers kube-controller-manager signs for with the cluster CA (legacy-unknown aside). */
export const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';
export const SIGNERS = [KUBE_APISERVER_CLIENT, KUBELET_CLIENT, KUBELET_SERVING];

const OID_COMMON_NAME = '2.5.4.3';
const OID_ORGANIZATION = '2.5.4.10';

function attributes(request: CertificateRequest, oid: string): string[] {
  const values: string[] = [];
  for (const rdn of request.subject) {
    for (const attribute of rdn) {
      if (attribute.type === oid) values.push(attribute.value.toString());
    }
  }
  return values;
}

interface AltNames {
  readonly dns: number;
  readonly ip: number;
  readonly email: number;
  readonly uri: number;
}

function altNames(request: CertificateRequest): AltNames {
  const counts = { dns: 0, ip: 0, email: 0, uri: 0 };
  for (const ext of request.extensions.filter((e) => e.extnID === id_ce_subjectAltName)) {
    for (const name of AsnConvert.parse(ext.extnValue.buffer, SubjectAlternativeName)) {
      if (name.dNSName !== undefined) counts.dns++;
      if (name.iPAddress !== undefined) counts.ip++;
      if (name.rfc822Name !== undefined) counts.email++;
      if (name.uniformResourceIdentifier !== undefined) counts.uri++;
    }
  }
  return counts;
}

/** Usages a client certificate may carry, client auth required (the signers' usage checks). */
function clientUsagesProblem(usages: readonly string[]): string | undefined {
  for (const usage of usages) {
    if (!['digital signature', 'key encipherment', 'client auth'].includes(usage)) return `invalid usage for client certificate: ${usage}`;
  }
  return usages.includes('client auth') ? undefined : 'missing required usage for client certificate: client auth';
}

/** A node identity: organization exactly system:nodes and a system:node: common name. */
function nodeSubjectProblem(request: CertificateRequest): string | undefined {
  const orgs = attributes(request, OID_ORGANIZATION);
  if (orgs.length !== 1 || orgs[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (!(attributes(request, OID_COMMON_NAME)[0] ?? '').startsWith('system:node:'))
    return 'subject common name does not begin with system:node:';
  return undefined;
}

/**
 * Why the signer refuses a request it recognises (the signer's isRequestForSigner checks), or undefined to sign.
 * A refusal becomes a Failed condition with reason SignerValidationFailure.
 */
export function signerRefusal(signerName: string, request: CertificateRequest, usages: readonly string[]): string | undefined {
  if (signerName === KUBE_APISERVER_CLIENT) return clientUsagesProblem(usages);
  const node = nodeSubjectProblem(request);
  if (node !== undefined) return node;
  const names = altNames(request);
  if (signerName === KUBELET_CLIENT) {
    if (names.dns > 0) return 'DNS subjectAltNames are not allowed';
    if (names.email > 0) return 'Email subjectAltNames are not allowed';
    if (names.ip > 0) return 'IP subjectAltNames are not allowed';
    if (names.uri > 0) return 'URI subjectAltNames are not allowed';
    return clientUsagesProblem(usages);
  }
  if (names.dns + names.ip === 0) return 'DNS or IP subjectAltName is required';
  if (names.email > 0) return 'Email subjectAltNames are not allowed';
  if (names.uri > 0) return 'URI subjectAltNames are not allowed';
  for (const usage of usages) {
    if (!['digital signature', 'key encipherment', 'server auth'].includes(usage))
      return `invalid usage for kubelet serving certificate: ${usage}`;
  }
  return usages.includes('server auth') ? undefined : 'missing required usage for kubelet serving certificate: server auth';
}
