import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody, type FieldError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateEndpoints } from './endpoints-validation.js';

// Cases from pkg/apis/core/validation: ValidateEndpoints, validateEndpointSubsets, validateEndpointAddress,
// ValidateNonSpecialIP and validateEndpointPort.

const render = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const endpoints = (subsets: unknown[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name: 'web', namespace: 'default' },
  subsets,
});

const CASES: [string, unknown[], string[]][] = [
  [
    'valid addresses and ports',
    [{ addresses: [{ ip: '10.1.0.1', hostname: 'web-0', nodeName: 'node-1' }], ports: [{ port: 80, protocol: 'TCP' }] }],
    [],
  ],
  ['a headless Service has no ports', [{ notReadyAddresses: [{ ip: 'fd00::1' }] }], []],
  [
    'a subset needs an address',
    [{ ports: [{ port: 80, protocol: 'TCP' }] }],
    ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`'],
  ],
  [
    'addresses are IPs, never link-local, multicast or unspecified (loopback is the exception Cascade makes)',
    [{ addresses: [{ ip: '127.0.0.1' }, { ip: '169.254.169.254' }, { ip: '224.0.0.1' }, { ip: '0.0.0.0' }, { ip: 'web' }] }],
    [
      'subsets[0].addresses[1].ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'subsets[0].addresses[2].ip: Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      'subsets[0].addresses[3].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'subsets[0].addresses[4].ip: Invalid value: "web": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[0].addresses[4].ip: Invalid value: "web": must be a valid IP address',
    ],
  ],
  [
    'IPv6 special ranges',
    [{ addresses: [{ ip: '::1' }, { ip: 'fe80::1' }] }],
    ['subsets[0].addresses[1].ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
  ],
  [
    'hostname is a DNS label, nodeName a subdomain',
    [{ addresses: [{ ip: '10.1.0.1', hostname: 'Web', nodeName: 'Node_1' }] }],
    [
      "subsets[0].addresses[0].hostname: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      "subsets[0].addresses[0].nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  ],
  [
    'ports: names required when several, port range, protocol enum',
    [
      {
        addresses: [{ ip: '10.1.0.1' }],
        ports: [
          { port: 0, protocol: 'TCP' },
          { name: 'b', port: 81, protocol: 'ICMP' },
        ],
      },
    ],
    [
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ],
  ],
];

for (const [name, subsets, expected] of CASES) {
  test(`ValidateEndpoints: ${name}`, () => assert.deepEqual(render(validateEndpoints(endpoints(subsets))), expected));
}
