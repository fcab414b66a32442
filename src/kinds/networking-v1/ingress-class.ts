import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject, type KubeObject } from '../../api/types.js';
import { kindDefinition, listDefinition, ref } from '../../openapi/builders/group-builders.js';
import { object, str } from '../../openapi/builders/shorthand.js';
import type { Definitions } from '../../openapi/schema.js';
import { age } from '../../tables/cell-format.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../tables/common-columns.js';
import { get, text } from '../../tables/object-fields.js';
import { column, type Printer } from '../../tables/printer.js';
import { isDns1123Label, isDns1123Subdomain, isValidPathSegmentName } from '../../validation/names.js';
import { isDomainPrefixedPath } from '../../validation/network.js';
import type { FieldNumberTable } from '../define/field-numbers.js';
import type { KindDefinition } from '../define/kind-definition.js';
import { resourceInfo } from '../define/resource.js';
import { specOf } from '../../api/json-fields.js';

const P = 'io.k8s.api.networking.v1.';
const SCOPES = ['Cluster', 'Namespace'];
const MAX_CONTROLLER_LENGTH = 250;

type Obj = Record<string, unknown>;

/** printIngressClass: parameters as "<Kind>[.<apiGroup>]/<name>". */
function parameters(ingressClass: KubeObject): string {
  const params = get(ingressClass, 'spec', 'parameters');
  if (!isObject(params)) return '<none>';
  const group = typeof params.apiGroup === 'string' ? `.${params.apiGroup}` : '';
  return `${text(params.kind)}${group}/${text(params.name)}`;
}

const INGRESS_CLASS_PRINTER: Printer = {
  style: 'printer',
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  row: (ingressClass, now) => [
    ingressClass.metadata.name ?? '',
    text(get(ingressClass, 'spec', 'controller')),
    parameters(ingressClass),
    age(ingressClass.metadata.creationTimestamp, now),
  ],
};

/** SetDefaults_IngressClass: a parameters reference without a scope points at a cluster-scoped resource. */
function defaultIngressClass(obj: KubeObject): void {
  const params = specOf(obj).parameters;
  if (isObject(params) && params.scope === undefined) params.scope = 'Cluster';
}

function validateParameters(params: Obj): FieldError[] {
  const path = 'spec.parameters';
  const errs: FieldError[] = [];
  if (typeof params.apiGroup === 'string') {
    const group = params.apiGroup;
    errs.push(...isDns1123Subdomain(group).map((msg) => fieldError.invalid(`${path}.apiGroup`, group, msg)));
  }
  for (const key of ['kind', 'name']) {
    const value = typeof params[key] === 'string' ? params[key] : '';
    if (value === '') errs.push(fieldError.required(`${path}.${key}`));
    else errs.push(...isValidPathSegmentName(value).map((msg) => fieldError.invalid(`${path}.${key}`, value, msg)));
  }
  if (typeof params.scope !== 'string') return [...errs, fieldError.required(`${path}.scope`)];
  const scope = params.scope;
  if (!SCOPES.includes(scope)) return [...errs, fieldError.notSupported(`${path}.scope`, scope, SCOPES)];
  const namespace = params.namespace;
  if (scope === 'Namespace') {
    if (typeof namespace !== 'string') errs.push(fieldError.required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...isDns1123Label(namespace).map((msg) => fieldError.invalid(`${path}.namespace`, namespace, msg)));
  } else if (namespace !== undefined && namespace !== null) {
    errs.push(fieldError.forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

/** validateIngressClassSpec: a domain-prefixed controller of at most 250 bytes and a well-formed parameters reference. */
function validateIngressClass(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const controller = typeof spec.controller === 'string' ? spec.controller : '';
  const errs: FieldError[] = [];
  if (controller === '') errs.push(fieldError.required('spec.controller'));
  else {
    if (Buffer.byteLength(controller) > MAX_CONTROLLER_LENGTH) errs.push(fieldError.tooLong('spec.controller', MAX_CONTROLLER_LENGTH));
    errs.push(...isDomainPrefixedPath('spec.controller', controller));
  }
  if (isObject(spec.parameters)) errs.push(...validateParameters(spec.parameters));
  return errs;
}

/** ValidateIngressClassUpdate: the controller is immutable, then the whole class is validated again. */
function validateIngressClassUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const controller = specOf(next).controller ?? '';
  const errs: FieldError[] = [];
  if (controller !== (specOf(old).controller ?? '')) errs.push(fieldError.invalid('spec.controller', controller, 'field is immutable'));
  return [...errs, ...validateIngressClass(next)];
}

const DEFINITIONS: Definitions = {
  [`${P}IngressClass`]: kindDefinition({
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'IngressClass',
    description:
      'IngressClass names the controller that implements a class of Ingresses. Annotated with ingressclass.kubernetes.io/is-default-class=true, it is the class of new Ingresses that name none.',
    properties: {
      spec: ref(`${P}IngressClassSpec`, 'Controller and parameters of the class.'),
    },
  }),
  [`${P}IngressClassList`]: listDefinition('networking.k8s.io', 'v1', 'IngressClass', `${P}IngressClass`),
  [`${P}IngressClassSpec`]: object('Controller and parameters of an IngressClass.', {
    controller: str(
      'Domain-prefixed name of the controller handling the class, e.g. "acme.io/ingress-controller"; at most 250 characters. Immutable.',
    ),
    parameters: ref(`${P}IngressClassParametersReference`, 'Resource holding extra configuration for the controller, if it needs one.'),
  }),
  [`${P}IngressClassParametersReference`]: {
    ...object('Reference to a cluster- or namespace-scoped resource holding IngressClass parameters.', {
      apiGroup: str('API group of the resource; the core group when unset.'),
      kind: str('Kind of the resource.'),
      name: str('Name of the resource.'),
      namespace: str('Namespace of the resource; required with scope Namespace, forbidden with scope Cluster.'),
      scope: str('Cluster (the default) or Namespace.'),
    }),
    required: ['kind', 'name'],
  },
};

const FIELD_NUMBERS: FieldNumberTable = {
  [`${P}IngressClass`]: { tags: { metadata: 1, spec: 2 } },
  [`${P}IngressClassList`]: { tags: { metadata: 1, items: 2 } },
  [`${P}IngressClassSpec`]: { tags: { controller: 1, parameters: 2 } },
  [`${P}IngressClassParametersReference`]: {
    tags: { apiGroup: 1, kind: 2, name: 3, scope: 4, namespace: 5 },
    pointers: ['apiGroup', 'scope', 'namespace'],
  },
};

/** networking.k8s.io/v1 IngressClass: cluster-scoped, names the controller serving a class of Ingresses. */
export const INGRESS_CLASS: KindDefinition = {
  resource: resourceInfo({ group: 'networking.k8s.io', version: 'v1', kind: 'IngressClass', plural: 'ingressclasses', namespaced: false }),
  strategy: {
    specGeneration: true,
    defaults: defaultIngressClass,
    validate: validateIngressClass,
    validateUpdate: validateIngressClassUpdate,
  },
  printer: INGRESS_CLASS_PRINTER,
  definitions: DEFINITIONS,
  fieldNumbers: FIELD_NUMBERS,
};
