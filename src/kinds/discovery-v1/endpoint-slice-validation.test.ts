import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './endpoint-slice-validation.js';

// Cases from pkg/apis/discovery/validation: ValidateEndpointSliceCreate / ValidateEndpointSliceUpdate.

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const slice = (fields: Record<string, unknown>): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'web-abc', namespace: 'default' },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.1.0.1'], conditions: { ready: true } }],
  ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  ...fields,
});

const CASES: [string, KubeObject, string[]][] = [
  ['a valid IPv4 slice', slice({}), []],
  ['a valid FQDN slice', slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] }), []],
  ['addressType is required', slice({ addressType: '' }), ['addressType: Required value']],
  ['addressType enum', slice({ addressType: 'IP' }), ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']],
  [
    'addresses match the type and are not special',
    slice({ endpoints: [{ addresses: ['fd00::1', '169.254.0.1'] }, { addresses: [] }] }),
    [
      'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
      'endpoints[0].addresses[1]: Invalid value: "169.254.0.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'endpoints[1].addresses: Required value: must contain at least 1 address',
    ],
  ],
  [
    'FQDN addresses need two labels',
    slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db'] }] }),
    ['endpoints[0].addresses[0]: Invalid value: "db": should be a domain with at least two segments separated by dots'],
  ],
  [
    'at most 1000 endpoints',
    slice({ endpoints: Array.from({ length: 1001 }, () => ({ addresses: ['10.1.0.1'] })) }),
    ['endpoints: Too many: 1001: must have at most 1000 items'],
  ],
  [
    'hostname, nodeName and zone hints',
    slice({
      endpoints: [{ addresses: ['10.1.0.1'], hostname: 'A', nodeName: 'n_1', hints: { forZones: [{ name: 'a' }, { name: 'a' }] } }],
    }),
    [
      "endpoints[0].nodeName: Invalid value: \"n_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "endpoints[0].hostname: Invalid value: \"A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
    ],
  ],
  [
    'ports: unique names and protocol enum',
    slice({
      ports: [
        { name: 'http', port: 80, protocol: 'TCP' },
        { name: 'http', port: 81, protocol: 'HTTP' },
      ],
    }),
    ['ports[1].name: Duplicate value: "http"', 'ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'],
  ],
];

for (const [name, obj, expected] of CASES) {
  test(`ValidateEndpointSliceCreate: ${name}`, () => assert.deepEqual(render(validateEndpointSlice(obj)), expected));
}

test('ValidateEndpointSliceUpdate: addressType is immutable', () => {
  assert.deepEqual(render(validateEndpointSliceUpdate(slice({ addressType: 'IPv6', endpoints: [] }), slice({}))), [
    'addressType: Invalid value: "IPv6": field is immutable',
  ]);
  assert.deepEqual(render(validateEndpointSliceUpdate(slice({}), slice({}))), []);
});
