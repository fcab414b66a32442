import { isObject, objects, type KubeObject } from '../../api/types.js';
import { kindDefinition, LABEL_SELECTOR, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import { ATOMIC, arrayOf, int32, intOrString, meta, object, str, stringArray } from '../../openapi/builders/shorthand.js';
import { type Definitions, definitionRef } from '../../openapi/schema.js';
import { age, formatLabelSelector } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get } from '../../tables/object-fields.js';
import { column } from '../../tables/printer.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './network-policy-validation.js';

const P = 'io.k8s.api.networking.v1.';

/** Column description: the extensions/v1beta1 swagger doc of spec.podSelector, which the Go printer still quotes. */
const podSelectorDoc =
  'Selects the pods to which this NetworkPolicy object applies.  The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods.  In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.';

type Obj = Record<string, unknown>;

/**
 * SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort: a policy that names no policy types is an Ingress
 * policy, and an Egress one too when it has egress rules; a port without a protocol is TCP.
 */
function defaultNetworkPolicy(obj: KubeObject): void {
  if (!isObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Obj;
  // Go always writes the (non-pointer) pod selector, empty when the client sent none.
  if (!isObject(spec.podSelector)) spec.podSelector = {};
  const egress = objects(spec.egress);
  for (const rule of [...objects(spec.ingress), ...egress]) {
    for (const port of objects(rule.ports)) port.protocol ??= 'TCP';
  }
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    spec.policyTypes = egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

const DEFINITIONS: Definitions = {
  [`${P}NetworkPolicy`]: kindDefinition({
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    description: 'NetworkPolicy states which traffic the selected pods may receive and send.',
    properties: {
      spec: ref(`${P}NetworkPolicySpec`, 'Pods the policy applies to and the traffic it allows.'),
    },
  }),
  [`${P}NetworkPolicyList`]: listDefinition('networking.k8s.io', 'v1', 'NetworkPolicy', `${P}NetworkPolicy`),
  [`${P}NetworkPolicySpec`]: {
    ...object('Pods a NetworkPolicy applies to and the traffic it allows them.', {
      egress: arrayOf(
        definitionRef(`${P}NetworkPolicyEgressRule`),
        'Allowed outgoing traffic; none when empty and Egress is a policy type.',
        ATOMIC,
      ),
      ingress: arrayOf(definitionRef(`${P}NetworkPolicyIngressRule`), 'Allowed incoming traffic; none when empty.', ATOMIC),
      podSelector: ref(LABEL_SELECTOR, 'Pods of the namespace the policy applies to; empty selects them all.'),
      policyTypes: arrayOf(
        { type: 'string', enum: ['Egress', 'Ingress'] },
        'Directions the policy isolates: Ingress, Egress or both. Defaults to Ingress, plus Egress when there are egress rules.',
        ATOMIC,
      ),
    }),
    required: ['podSelector'],
  },
  [`${P}NetworkPolicyIngressRule`]: object('Traffic allowed to the selected pods: it must match both ports and from.', {
    from: arrayOf(definitionRef(`${P}NetworkPolicyPeer`), 'Sources allowed; any source when empty.', ATOMIC),
    ports: arrayOf(definitionRef(`${P}NetworkPolicyPort`), 'Ports allowed; any port when empty.', ATOMIC),
  }),
  [`${P}NetworkPolicyEgressRule`]: object('Traffic allowed from the selected pods: it must match both ports and to.', {
    ports: arrayOf(definitionRef(`${P}NetworkPolicyPort`), 'Destination ports allowed; any port when empty.', ATOMIC),
    to: arrayOf(definitionRef(`${P}NetworkPolicyPeer`), 'Destinations allowed; any destination when empty.', ATOMIC),
  }),
  [`${P}NetworkPolicyPort`]: object('A port, or a range of ports, on a protocol.', {
    endPort: int32('Last port of the range starting at port; needs a numeric port no greater than it.'),
    port: intOrString('Port number or named port on the pods; every port when unset.'),
    protocol: str('Protocol: TCP (the default), UDP or SCTP.', { enum: ['SCTP', 'TCP', 'UDP'] }),
  }),
  [`${P}NetworkPolicyPeer`]: object('A set of pods, namespaces or IP addresses; ipBlock excludes the other two.', {
    ipBlock: ref(`${P}IPBlock`, 'IP addresses of the peer.'),
    namespaceSelector: meta('LabelSelector', 'Namespaces whose pods (those podSelector selects, or all) are peers.'),
    podSelector: meta('LabelSelector', "Pods that are peers, in the policy's namespace unless namespaceSelector is set."),
  }),
  [`${P}IPBlock`]: {
    ...object('A CIDR, minus some sub-ranges.', {
      cidr: str('The CIDR, e.g. "192.168.1.0/24" or "2001:db8::/64".'),
      except: stringArray('CIDRs inside cidr that are excluded.'),
    }),
    required: ['cidr'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}NetworkPolicy`]: { tags: { metadata: 1, spec: 2 } },
  [`${P}NetworkPolicyList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}NetworkPolicySpec`]: { tags: { podSelector: 1, ingress: 2, egress: 3, policyTypes: 4 } },
  [`${P}NetworkPolicyIngressRule`]: { tags: { ports: 1, from: 2 } },
  [`${P}NetworkPolicyEgressRule`]: { tags: { ports: 1, to: 2 } },
  [`${P}NetworkPolicyPort`]: { tags: { protocol: 1, port: 2, endPort: 3 }, pointers: ['protocol', 'endPort'] },
  [`${P}NetworkPolicyPeer`]: { tags: { podSelector: 1, namespaceSelector: 2, ipBlock: 3 } },
  [`${P}IPBlock`]: { tags: { cidr: 1, except: 2 } },
};

/** networking.k8s.io/v1 NetworkPolicy: which traffic selected pods may receive and send. */
export const NETWORK_POLICY: KindDefinition = {
  resource: resourceInfo({
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    namespaced: true,
    shortNames: ['netpol'],
  }),
  strategy: {
    specGeneration: true,
    defaults: defaultNetworkPolicy,
    validate: validateNetworkPolicy,
    validateUpdate: validateNetworkPolicyUpdate,
  },
  printer: {
    style: 'printer',
    columns: [NAME_COLUMN, column('Pod-Selector', 'string', podSelectorDoc), AGE_COLUMN],
    row: (policy, now) => [
      policy.metadata.name ?? '',
      formatLabelSelector(get(policy, 'spec', 'podSelector')),
      age(policy.metadata.creationTimestamp, now),
    ],
  },
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
