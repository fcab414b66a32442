import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLabelSelector } from './label-selector.js';
import { SelectorError } from './selector-error.js';

const QUALIFIED_NAME_HINT =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_HINT =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
  "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is " +
  "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector: valid input', () => {
  const cases: [input: string, normalized: string][] = [
    ['', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x notin (a)', 'x notin (a)'],
    ['x', 'x'],
    ['!x', '!x'],
    ['x>1', 'x>1'],
    ['x<5', 'x<5'],
    ['x=', 'x='],
    ['x in ()', 'x in ()'],
    ['  y ,\tx = a  ', 'x=a,y'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['in in (in)', 'in in (in)'],
    ['example.com/app=web,tier notin (db,cache)', 'example.com/app=web,tier notin (cache,db)'],
  ];
  for (const [input, normalized] of cases) {
    it(`parses ${JSON.stringify(input)}`, () => {
      const selector = parseLabelSelector(input);
      assert.equal(selector.toString(), normalized);
      assert.equal(selector.empty, normalized === '');
    });
  }
});

describe('parseLabelSelector: invalid input (400 BadRequest messages)', () => {
  const cases: [input: string, message: string][] = [
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['x,,y', "found ',', expected: identifier after ','"],
    [',x', "found ',', expected: !, identifier, or 'end of string'"],
    ['x=,', "found '', expected: identifier after ','"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['x>a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['-x=a', `unable to parse requirement: <nil>: Invalid value: "-x": name part ${QUALIFIED_NAME_HINT}`],
    ['app:web', `unable to parse requirement: <nil>: Invalid value: "app:web": name part ${QUALIFIED_NAME_HINT}`],
    [
      'a/b/c=d',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${QUALIFIED_NAME_HINT} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    [
      'Bad_Prefix/x',
      `unable to parse requirement: <nil>: Invalid value: "Bad_Prefix/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
    [
      `${'k'.repeat(64)}=v`,
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    // A negative bound is an integer but not a valid label value, so Gt/Lt cannot express it.
    ['x<-5', `unable to parse requirement: values[0][x]: Invalid value: "-5": ${LABEL_VALUE_HINT}`],
    ['x=-a', `unable to parse requirement: values[0][x]: Invalid value: "-a": ${LABEL_VALUE_HINT}`],
    [
      `x=${'v'.repeat(64)}`,
      `unable to parse requirement: values[0][x]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    ],
    [
      'x>-a',
      "unable to parse requirement: [values[0]: Invalid value: \"-a\": for 'Gt', 'Lt' operators, the value must be an integer, " +
        `values[0][x]: Invalid value: "-a": ${LABEL_VALUE_HINT}]`,
    ],
  ];
  for (const [input, message] of cases) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(
        () => parseLabelSelector(input),
        (error: unknown) => {
          assert.ok(error instanceof SelectorError);
          assert.equal(error.message, message);
          return true;
        },
      );
    });
  }
});

describe('LabelSelector.matches', () => {
  const labels = { app: 'web', tier: 'front', replicas: '3', version: 'v1' };
  const cases: [selector: string, expected: boolean][] = [
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (db,web)', true],
    ['missing in (x)', false],
    ['app notin (web)', false],
    ['missing notin (x)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['replicas>2', true],
    ['replicas>3', false],
    ['replicas<4', true],
    ['version>0', false],
    ['missing<10', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
  ];
  for (const [selector, expected] of cases) {
    it(`${JSON.stringify(selector)} → ${expected}`, () => {
      assert.equal(parseLabelSelector(selector).matches(labels), expected);
    });
  }

  it('treats absent labels as an empty set', () => {
    assert.equal(parseLabelSelector('!app').matches(undefined), true);
    assert.equal(parseLabelSelector('app').matches(undefined), false);
  });
});
