import { type FieldError, fieldError } from '../../api/errors.js';
import { isIPv6String, parseIp, validateIp } from '../../validation/ip-address.js';

/**
 * The clusterIP / clusterIPs / ipFamilies / ipFamilyPolicy rules of pkg/apis/core/validation
 * (ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs, validateUpgradeDowngradeIPFamilies).
 */

type Spec = Record<string, unknown>;

const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

export const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : String(v))) : [];
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** isHeadlessService: exactly one clusterIP, "None". */
export function isHeadless(spec: Spec): boolean {
  const ips = stringList(spec.clusterIPs);
  return ips.length === 1 && ips[0] === 'None';
}

/** ValidateServiceClusterIPsRelatedFields (ExternalName services are checked by the caller). */
export function validateClusterIpFields(spec: Spec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = textOf(spec.clusterIP);
  const clusterIPs = stringList(spec.clusterIPs);
  const families = stringList(spec.ipFamilies);
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(fieldError.required('spec.clusterIPs'));
    else if (clusterIPs[0] !== clusterIP)
      errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  families.forEach((family, i) => {
    if (!IP_FAMILIES.includes(family)) errs.push(fieldError.notSupported(`spec.ipFamilies[${i}]`, family, IP_FAMILIES));
    if (seen.has(family)) errs.push(fieldError.duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !IP_FAMILY_POLICIES.includes(textOf(policy))) {
    errs.push(fieldError.notSupported('spec.ipFamilyPolicy', policy, IP_FAMILY_POLICIES));
  }
  let invalidIps = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        invalidIps = true;
        errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateIp(`spec.clusterIPs[${i}]`, ip);
    if (ipErrs.length > 0) invalidIps = true;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2) errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'may only hold up to 2 values'));
  // Invalid addresses would only skew the family checks below.
  if (invalidIps) return errs;
  if (clusterIPs.length > 1) {
    const ipFamiliesSeen = new Set(clusterIPs.map((ip) => parseIp(ip)?.family));
    const dualStack = ipFamiliesSeen.has('IPv4') && ipFamiliesSeen.has('IPv6');
    if (!dualStack) errs.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) {
        errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      }
      if (families[i] === 'IPv6' && !isIPv6String(ip)) {
        errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
      }
    });
  }
  return errs;
}

const policyValue = (spec: Spec): unknown => (spec.ipFamilyPolicy === undefined ? null : spec.ipFamilyPolicy);

/** validateUpgradeDowngradeClusterIPs: a secondary address may come and go, the primary never changes. */
export function validateClusterIpsUpdate(next: Spec, old: Spec): FieldError[] {
  if (next.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(old) && isHeadless(next)) return [];
  const errs: FieldError[] = [];
  const oldIps = stringList(old.clusterIPs);
  const newIps = stringList(next.clusterIPs);
  const changed = (): FieldError => fieldError.invalid('spec.clusterIPs[0]', newIps, 'may not change once set');
  if (oldIps.length === newIps.length) {
    oldIps.forEach((ip, i) => {
      if (ip !== newIps[i]) errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, newIps, 'may not change once set'));
    });
  } else if (oldIps.length > newIps.length) {
    if (newIps.length === 0) errs.push(fieldError.invalid('spec.clusterIPs[0]', newIps, 'primary clusterIP can not be unset'));
    if (oldIps.length > 0 && newIps.length > 0 && newIps[0] !== oldIps[0]) errs.push(changed());
    if (newIps.length === 1 && next.ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldError.invalid('spec.ipFamilyPolicy', policyValue(next), "must be set to 'SingleStack' when releasing the secondary clusterIP"),
      );
    }
  } else if (oldIps.length > 0 && newIps[0] !== oldIps[0]) {
    errs.push(changed());
  }
  return errs;
}

/** validateUpgradeDowngradeIPFamilies: the same for ipFamilies, except across a change to or from headless. */
export function validateIpFamiliesUpdate(next: Spec, old: Spec): FieldError[] {
  if (next.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(next) !== isHeadless(old) || isHeadless(next)) return [];
  const errs: FieldError[] = [];
  const oldFamilies = stringList(old.ipFamilies);
  const newFamilies = stringList(next.ipFamilies);
  const newIps = stringList(next.clusterIPs);
  if (oldFamilies.length === newFamilies.length) {
    oldFamilies.forEach((family, i) => {
      // Kubernetes names index 0 whichever family changed.
      if (family !== newFamilies[i]) errs.push(fieldError.invalid('spec.ipFamilies[0]', newFamilies, 'may not change once set'));
    });
  } else if (oldFamilies.length > newFamilies.length) {
    if (newIps.length === 0) errs.push(fieldError.invalid('spec.ipFamilies[0]', newFamilies, 'primary ipFamily can not be unset'));
    if (newFamilies.length > 0 && newFamilies[0] !== oldFamilies[0]) {
      errs.push(fieldError.invalid('spec.ipFamilies[0]', newIps, 'may not change once set'));
    }
    if (newFamilies.length === 1 && next.ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldError.invalid('spec.ipFamilyPolicy', policyValue(next), "must be set to 'SingleStack' when releasing the secondary ipFamily"),
      );
    }
  } else if (oldFamilies.length > 0 && newFamilies.length > 0 && newFamilies[0] !== oldFamilies[0]) {
    errs.push(fieldError.invalid('spec.ipFamilies[0]', newIps, 'may not change once set'));
  }
  return errs;
}
