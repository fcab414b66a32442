import type { Random } from './random.js';

// Hostile scalar values: names, label keys and values, selectors, resourceVersions and numbers at the edges. Each
// list mixes valid values (so requests get past the first check) with the invalid ones the issue names.

export const VALID_NAMES = ['cm-0', 'cm-1', 'cm-2', 'a', 'x.y', 'fz-new', `n${'a'.repeat(252)}`];

export const HOSTILE_NAMES = [
  '',
  '.',
  '..',
  '...',
  'UPPER',
  '-lead',
  'trail-',
  'a_b',
  'a b',
  'a/b',
  'a%b',
  'a%2fb',
  '%2e%2e',
  'a\u0000b',
  'ünï',
  '💥',
  'a'.repeat(254),
  'a'.repeat(64),
  'a..b',
  '.a',
  'a.',
  'x'.repeat(4096),
  '\\',
  '?',
  '#',
  ';',
  'a;b=c',
  '\r\nX: y',
  '123',
  'null',
  'true',
];

export const LABEL_KEYS = [
  'app',
  'example.com/app',
  '',
  '/app',
  'example.com/',
  'a/b/c',
  'UPPER.com/x',
  '-x',
  'x-',
  'k'.repeat(63),
  'k'.repeat(64),
  `${'d'.repeat(254)}/x`,
  'kubernetes.io/x',
  'a b',
  'ü',
];

export const LABEL_VALUES = ['', 'v', 'v'.repeat(63), 'v'.repeat(64), '-v', 'v-', 'a b', 'a/b', 'ü', '1', 'true', '\u0000'];

export const SELECTORS = [
  'app=x',
  'app==x',
  'app!=x',
  'app',
  '!app',
  'app in (a,b)',
  'app notin (a)',
  'app in ()',
  'app in (',
  'app in (a b)',
  'app=',
  '=x',
  '==',
  ',',
  ',,,',
  'app=x,',
  'app=x,,b=y',
  'app>1',
  'app<1',
  'app>x',
  'app gt 1',
  '!',
  '!!app',
  '!app=x',
  'a b c',
  '(app)',
  'app=(x)',
  'a'.repeat(64),
  `app in (${Array.from({ length: 2000 }, (_, i) => `v${i}`).join(',')})`,
  `${Array.from({ length: 500 }, (_, i) => `k${i}=v`).join(',')}`,
  'app=ü',
  'app=x\u0000',
  '%',
  'app=%ZZ',
];

export const FIELD_SELECTORS = [
  'metadata.name=cm-0',
  'metadata.namespace=fz-a',
  'metadata.name!=x',
  'metadata.name==x',
  'metadata.name',
  'metadata.name in (a)',
  'spec.nodeName=x',
  'status.phase=Running',
  'metadata.uid=x',
  'no.such.field=x',
  'metadata.name=',
  '=x',
  'metadata.name=x,metadata.namespace=y',
  'metadata.name=a\\,b',
  'metadata.name=a\\',
  'metadata.name=\\x',
  ',',
  'type=Opaque',
  `metadata.name=${'a'.repeat(5000)}`,
];

export const RESOURCE_VERSIONS = [
  '',
  '0',
  '1',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '0x10',
  ' 1',
  '+1',
  '99999999999999999999',
  '18446744073709551615',
  '18446744073709551616',
  '9223372036854775807',
  '9223372036854775808',
  '00001',
  '1 2',
  '\u0000',
  'ü',
];

/** Numbers written as JSON text, so values JSON.stringify cannot produce (1e400, -0, huge integers) go out as is. */
export const NUMBER_TEXTS = [
  '0',
  '-0',
  '1',
  '-1',
  '0.5',
  '1.0',
  '1e3',
  '1E+2',
  '-1e-7',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '1e308',
  '1e309',
  '-1e309',
  '5e-324',
  '1e-400',
  `1${'0'.repeat(400)}`,
  `0.${'0'.repeat(400)}1`,
];

/** The same edges written for query parameters, plus what is not a number at all. */
export const NUMBER_PARAMS = [...NUMBER_TEXTS, '', 'abc', ' 1', '+1', '0x10', '1_000', 'NaN', 'Infinity', '-Infinity', '1,2', '٣'];

export const BOOL_PARAMS = ['true', 'false', '1', '0', 'True', 'TRUE', 't', 'f', 'yes', '', 'truee', '2'];

export function pickName(r: Random): string {
  return r.chance(0.55) ? r.pick(VALID_NAMES) : r.pick(HOSTILE_NAMES);
}

export function hostileLabels(r: Random): Record<string, string> {
  const labels: Record<string, string> = {};
  const n = r.chance(0.05) ? r.between(100, 3000) : r.between(1, 4);
  for (let i = 0; i < n; i++) labels[n > 4 ? `k${i}` : r.pick(LABEL_KEYS)] = r.pick(LABEL_VALUES);
  return labels;
}
