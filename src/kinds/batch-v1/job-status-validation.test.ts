import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorBody } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { validateJobStatusUpdate } from './job-status-validation.js';

const rendered = (errors: FieldError[]): string[] => errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);

const withStatus = (status: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi', namespace: 'default' },
  spec: { completions: 1, parallelism: 1, completionMode: 'NonIndexed', ...spec },
  status,
});

const cond = (type: string) => ({ type, status: 'True' });

describe('Job status (ValidateJobUpdateStatus, kube-apiserver 1.32 options)', () => {
  it('accepts a Job finishing as the job controller finishes it', () => {
    const old = withStatus({ active: 1, startTime: '2026-01-01T00:00:00Z' });
    const next = withStatus({
      succeeded: 1,
      startTime: '2026-01-01T00:00:00Z',
      completionTime: '2026-01-01T00:01:00Z',
      conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
    });
    assert.deepEqual(rendered(validateJobStatusUpdate(next, old)), []);
  });

  it('refuses negative counts and duplicate uncounted pods (validateJobStatus)', () => {
    const next = withStatus({ active: -1, ready: -1, uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } });
    assert.deepEqual(rendered(validateJobStatusUpdate(next, withStatus({}))), [
      'status.active: Invalid value: -1: must be greater than or equal to 0',
      'status.ready: Invalid value: -1: must be greater than or equal to 0',
      'status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty',
      'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"',
    ]);
  });

  it('refuses a Complete condition without completionTime or startTime, with active pods', () => {
    const next = withStatus({ active: 1, conditions: [cond('Complete')] });
    assert.deepEqual(rendered(validateJobStatusUpdate(next, withStatus({ active: 1 }))), [
      'status.completionTime: Required value: completionTime is required for Complete jobs',
      'status.active: Invalid value: 1: active>0 is invalid for finished job',
      'status.startTime: Required value: startTime is required for finished job',
    ]);
  });

  it('refuses decreasing counters, disabling a terminal condition and mutating completionTime (ValidateJobStatusUpdate)', () => {
    const old = withStatus({
      failed: 2,
      startTime: '2026-01-01T00:00:00Z',
      completionTime: '2026-01-01T00:01:00Z',
      conditions: [cond('FailureTarget'), cond('Failed')],
    });
    const next = withStatus({
      failed: 1,
      startTime: '2026-01-01T00:00:00Z',
      completionTime: '2026-01-01T00:02:00Z',
      conditions: [cond('FailureTarget')],
    });
    assert.deepEqual(rendered(validateJobStatusUpdate(next, old)), [
      'status.completionTime: Invalid value: 2026-01-01 00:02:00 +0000 UTC: cannot set completionTime when there is no Complete=True condition',
      'status.conditions: Invalid value: cannot disable the terminal Failed=True condition',
      'status.failed: Invalid value: 1: cannot decrease the failed counter',
      'status.completionTime: Invalid value: 2026-01-01 00:02:00 +0000 UTC: completionTime cannot be mutated',
    ]);
  });

  it('refuses completedIndexes that do not parse, and overlapping failedIndexes', () => {
    const spec = { completionMode: 'Indexed', completions: 4, parallelism: 4, backoffLimitPerIndex: 1 };
    const next = withStatus({ completedIndexes: '1-2', failedIndexes: '2,7' }, spec);
    assert.deepEqual(rendered(validateJobStatusUpdate(next, withStatus({}, spec))), [
      'status.failedIndexes: Invalid value: "2,7": error parsing failedIndexes: too large index: "7"',
      'status.failedIndexes: Invalid value: "2,7": failedIndexes and completedIndexes overlap at index: 2',
    ]);
  });

  it('refuses SuccessCriteriaMet together with Failed, and disabling it', () => {
    const old = withStatus({ conditions: [cond('SuccessCriteriaMet')] });
    const next = withStatus({ conditions: [cond('FailureTarget')] });
    assert.deepEqual(rendered(validateJobStatusUpdate(next, old)), [
      'status.conditions: Invalid value: cannot disable the SuccessCriteriaMet=True condition',
    ]);
  });
});
