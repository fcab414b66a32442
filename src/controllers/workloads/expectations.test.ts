import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ControllerExpectations, EXPECTATIONS_TTL_MS } from './expectations.js';

test('ControllerExpectations: creations and deletions must be observed, each deleted pod counted once, until the TTL', () => {
  let now = 0;
  const e = new ControllerExpectations(() => now);
  assert.equal(e.satisfied('ns/rs'), true);
  e.expectCreations('ns/rs', 2);
  assert.equal(e.satisfied('ns/rs'), false);
  e.creationObserved('ns/rs');
  e.creationObserved('ns/rs');
  assert.equal(e.satisfied('ns/rs'), true);

  e.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
  e.deletionObserved('ns/rs', 'ns/a');
  // The same pod seen again (deletionTimestamp, then removal) is not counted twice; an unknown pod not at all.
  e.deletionObserved('ns/rs', 'ns/a');
  e.deletionObserved('ns/rs', 'ns/x');
  assert.deepEqual(e.pending('ns/rs'), { add: 0, del: 1 });
  assert.equal(e.satisfied('ns/rs'), false);
  now = EXPECTATIONS_TTL_MS + 1;
  assert.equal(e.satisfied('ns/rs'), true, 'expired');
  e.delete('ns/rs');
  assert.equal(e.pending('ns/rs'), undefined);
});
