import { AttributeTypeAndValue, AttributeValue, Name, RelativeDistinguishedName } from '@peculiar/asn1-x509';

const ID_AT_COMMON_NAME = '2.5.4.3';
const ID_AT_ORGANIZATION = '2.5.4.10';

export interface DistinguishedName {
  readonly commonName: string;
  /** Kubernetes reads every O attribute of a client certificate as one group of the user. */
  readonly organizations?: readonly string[];
}

function singleAttributeRdn(type: string, value: string): RelativeDistinguishedName {
  return new RelativeDistinguishedName([new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: value }) })]);
}

/** O before CN, one RDN per attribute: the order Go's crypto/x509 writes, so tools print familiar subjects. */
export function encodeDistinguishedName(dn: DistinguishedName): Name {
  const rdns = (dn.organizations ?? []).map((org) => singleAttributeRdn(ID_AT_ORGANIZATION, org));
  rdns.push(singleAttributeRdn(ID_AT_COMMON_NAME, dn.commonName));
  return new Name(rdns);
}
