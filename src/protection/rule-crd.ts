import { StatusError } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { ApiClient, ResourceRef } from '../client/interface.js';
import { PROTECTION_RULE_KIND, PROTECTION_RULES } from './rule-types.js';

const CRDS: ResourceRef = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

const resourceSchema = (what: string) => ({
  type: 'object',
  description: `The ${what} resource.`,
  required: ['group', 'version', 'resource'],
  properties: {
    group: { type: 'string', description: 'API group; "" for the core group.' },
    version: { type: 'string' },
    resource: { type: 'string', description: 'Plural resource name.' },
  },
});

/** The CustomResourceDefinition that serves ProtectionRules (rule-types.ts documents the fields). */
export const PROTECTION_RULE_CRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PROTECTION_RULES.resource}.${PROTECTION_RULES.group}` },
  spec: {
    group: PROTECTION_RULES.group,
    scope: 'Cluster',
    names: {
      plural: PROTECTION_RULES.resource,
      singular: 'protectionrule',
      kind: PROTECTION_RULE_KIND,
      listKind: `${PROTECTION_RULE_KIND}List`,
      shortNames: ['pr'],
    },
    versions: [
      {
        name: PROTECTION_RULES.version,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'Keeps providers from being deleted while dependents may be using them.',
            required: ['spec'],
            properties: {
              spec: {
                type: 'object',
                required: ['provider', 'dependent', 'references', 'finalizer'],
                properties: {
                  provider: resourceSchema('protected'),
                  dependent: resourceSchema('using'),
                  references: {
                    type: 'array',
                    description: 'Field paths in a dependent holding provider names, e.g. .spec.providerName or .spec.providers[*].',
                    items: { type: 'string' },
                  },
                  condition: {
                    type: 'string',
                    description:
                      'When a referencing dependent counts as using its providers, e.g. ".status.phase != Succeeded"; empty: always.',
                  },
                  finalizer: { type: 'string', description: 'The finalizer put on providers, e.g. example.com/in-use.' },
                },
              },
            },
          },
        },
        additionalPrinterColumns: [
          { name: 'Provider', type: 'string', jsonPath: '.spec.provider.resource' },
          { name: 'Dependent', type: 'string', jsonPath: '.spec.dependent.resource' },
          { name: 'Finalizer', type: 'string', jsonPath: '.spec.finalizer' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};

/** Creates the ProtectionRule CRD unless it exists (a server restarted on kept storage). */
export async function installProtectionRuleCrd(client: ApiClient): Promise<void> {
  try {
    await client.create(CRDS, undefined, PROTECTION_RULE_CRD);
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 409)) throw err;
  }
}
