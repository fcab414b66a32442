import type { Definitions } from '../../../openapi/schema.js';
import { ATOMIC, ATOMIC_STRUCT, CORE, core, coreArray, int32, meta, object, str, stringArray } from '../../../openapi/builders/shorthand.js';

/** core/v1 node and pod (anti-)affinity scheduling constraints. */

const podAffinity = (description: string, verb: string) =>
  object(description, {
    preferredDuringSchedulingIgnoredDuringExecution: coreArray(
      'WeightedPodAffinityTerm',
      `The scheduler prefers nodes that ${verb} these terms; the node with the greatest sum of matching weights wins.`,
      ATOMIC,
    ),
    requiredDuringSchedulingIgnoredDuringExecution: coreArray(
      'PodAffinityTerm',
      `Terms a node must ${verb} at scheduling time; all terms must be satisfied.`,
      ATOMIC,
    ),
  });

export const CORE_V1_AFFINITY_DEFINITIONS: Definitions = {
  [`${CORE}Affinity`]: object('Group of affinity scheduling rules.', {
    nodeAffinity: core('NodeAffinity', 'Node affinity scheduling rules for the pod.'),
    podAffinity: core('PodAffinity', 'Rules to co-locate the pod with other pods.'),
    podAntiAffinity: core('PodAntiAffinity', 'Rules to keep the pod away from other pods.'),
  }),
  [`${CORE}NodeAffinity`]: object('Node affinity scheduling rules.', {
    preferredDuringSchedulingIgnoredDuringExecution: coreArray(
      'PreferredSchedulingTerm',
      'The scheduler prefers nodes matching these weighted terms, but may choose others.',
      ATOMIC,
    ),
    requiredDuringSchedulingIgnoredDuringExecution: core(
      'NodeSelector',
      'Requirements a node must meet at scheduling time; not re-checked later.',
    ),
  }),
  [`${CORE}NodeSelector`]: object(
    'Union of node selector terms; a node matches if any term matches.',
    { nodeSelectorTerms: coreArray('NodeSelectorTerm', 'The terms, ORed.', ATOMIC) },
    { required: ['nodeSelectorTerms'], ...ATOMIC_STRUCT },
  ),
  [`${CORE}NodeSelectorTerm`]: object(
    'Requirements on node labels and fields, ANDed; an empty term matches nothing.',
    {
      matchExpressions: coreArray('NodeSelectorRequirement', 'Requirements on node labels.', ATOMIC),
      matchFields: coreArray('NodeSelectorRequirement', 'Requirements on node fields.', ATOMIC),
    },
    ATOMIC_STRUCT,
  ),
  [`${CORE}NodeSelectorRequirement`]: object(
    'Selector relating a key to values with an operator.',
    {
      key: str('The label key the selector applies to.'),
      operator: str('Relation of the key to the values.', {
        enum: ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'],
      }),
      values: stringArray('Values: non-empty for In/NotIn, empty for Exists/DoesNotExist, one integer for Gt/Lt.'),
    },
    { required: ['key', 'operator'] },
  ),
  [`${CORE}PreferredSchedulingTerm`]: object(
    'A weighted node selector term.',
    {
      preference: core('NodeSelectorTerm', 'Node selector term associated with the weight.'),
      weight: int32('Weight in the range 1-100.'),
    },
    { required: ['weight', 'preference'] },
  ),
  [`${CORE}PodAffinity`]: podAffinity('Inter-pod affinity scheduling rules.', 'satisfy'),
  [`${CORE}PodAntiAffinity`]: podAffinity('Inter-pod anti-affinity scheduling rules.', 'avoid'),
  [`${CORE}PodAffinityTerm`]: object(
    'Set of pods, selected by labels and namespaces, that this pod should be co-located with (or not) in a topology domain.',
    {
      labelSelector: meta('LabelSelector', 'Label query over the pods considered.'),
      matchLabelKeys: stringArray('Pod label keys whose values are merged into labelSelector as In requirements.'),
      mismatchLabelKeys: stringArray('Pod label keys whose values are merged into labelSelector as NotIn requirements.'),
      namespaceSelector: meta('LabelSelector', 'Label query over the namespaces the term applies to.'),
      namespaces: stringArray('Static list of namespaces the term applies to.'),
      topologyKey: str('Node label key whose equal values define co-location.'),
    },
    { required: ['topologyKey'] },
  ),
  [`${CORE}WeightedPodAffinityTerm`]: object(
    'A pod affinity term with a weight.',
    {
      podAffinityTerm: core('PodAffinityTerm', 'The pod affinity term.'),
      weight: int32('Weight in the range 1-100.'),
    },
    { required: ['weight', 'podAffinityTerm'] },
  ),
};
