import { isDeepStrictEqual } from 'node:util';
import { internalError } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { applyJsonPatch } from '../../patch/json-patch.js';
import type { AdmissionAttributes } from '../../registry/admission/attributes.js';
import type { MutatingAdmissionPlugin } from '../../registry/admission/plugin.js';
import { callWebhook, checkDryRun, groupVersion, judge, shouldCall, type WebhookPluginOptions } from './webhook-call.js';
import type { WebhookEntry, WebhookSource } from './webhook-configurations.js';
import { isExemptFromWebhooks } from './rule-matching.js';

/**
 * MutatingAdmissionWebhook (R11.50–R11.54): interested webhooks are called one after another in configuration
 * order, each seeing the object as the previous ones left it; a JSONPatch answer is applied to the object in the
 * version the webhook was called with. A webhook with reinvocationPolicy IfNeeded is called once more when a later
 * webhook changed the object after it (R11.53; Cascade's in-tree mutating plugins run before the webhooks and are
 * not re-run).
 */

/** The object the store holds is changed in place: plugins share the one record of the write. */
function replaceContents(target: KubeObject, next: Record<string, unknown>): void {
  for (const key of Object.keys(target)) delete (target as Record<string, unknown>)[key];
  Object.assign(target, next);
}

function decodePatch(encoded: string): unknown {
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw internalError(err);
  }
}

/** Applies one webhook's patch; true when the object changed (R11.52, R11.78). */
function applyPatchFrom(hook: WebhookEntry, attributes: AdmissionAttributes, patch: string, invocationGv: string): boolean {
  const object = attributes.object;
  if (object === undefined)
    throw internalError(
      new Error(`admission webhook ${JSON.stringify(hook.name)} attempted to modify the object, which is not supported for this operation`),
    );
  const original = object.apiVersion;
  const versioned = { ...object, apiVersion: invocationGv };
  let patched: unknown;
  try {
    patched = applyJsonPatch(versioned, decodePatch(patch));
  } catch (err) {
    throw internalError(err);
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched))
    throw internalError(new Error('the patched object is not a JSON object'));
  const next = { ...(patched as Record<string, unknown>), apiVersion: original };
  if (isDeepStrictEqual(next, object)) return false;
  replaceContents(object, next);
  return true;
}

export function mutatingAdmissionWebhook(source: WebhookSource, options: WebhookPluginOptions): MutatingAdmissionPlugin {
  const runOne = async (hook: WebhookEntry, attributes: AdmissionAttributes): Promise<'skipped' | 'unchanged' | 'changed'> => {
    const invocation = await shouldCall(hook, attributes, options.match);
    if (invocation === undefined) return 'skipped';
    checkDryRun(hook, attributes);
    const response = judge(hook, await callWebhook(hook, 'mutating', attributes, invocation, options.client), attributes);
    if (response?.patch === undefined) return 'unchanged';
    return applyPatchFrom(hook, attributes, response.patch, groupVersion(invocation)) ? 'changed' : 'unchanged';
  };
  return {
    name: 'MutatingAdmissionWebhook',
    handles: () => true,
    admit: async (attributes) => {
      if (attributes.user === undefined || isExemptFromWebhooks(attributes.resource)) return;
      const hooks = source.webhooks();
      if (hooks.length === 0) return;
      // Webhooks called in the first round that asked to be called again, and whether a later one changed the object.
      const reinvocable: { hook: WebhookEntry; changedAfter: boolean }[] = [];
      for (const hook of hooks) {
        const outcome = await runOne(hook, attributes);
        if (outcome === 'changed') for (const earlier of reinvocable) earlier.changedAfter = true;
        if (outcome !== 'skipped' && hook.reinvocationPolicy === 'IfNeeded') reinvocable.push({ hook, changedAfter: false });
      }
      for (const { hook, changedAfter } of reinvocable) if (changedAfter) await runOne(hook, attributes);
    },
  };
}
