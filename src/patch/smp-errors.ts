import { malformedPatch, type PatchError, patchEngineFailure, unprocessablePatch } from './errors.js';
import { goStringVerb, goTypeOf, goValue } from './go-format.js';
import type { JsonMap } from '../util/json-value.js';

/**
 * The strategic merge patch failures and the statuses the API server gives them: the mergepatch sentinel errors
 * listed in its interpretStrategicMergePatchError become 400 or 422; every other engine error, a 500 there, is a
 * 400 here (patchEngineFailure).
 */
export const smpErrors = {
  noMergeKey: (map: JsonMap, mergeKey: string): PatchError =>
    patchEngineFailure(`map: ${goValue(map)} does not contain declared merge key: ${mergeKey}`),
  expectedMap: (actual: unknown): PatchError =>
    patchEngineFailure(`expected a map[string]interface {}, but received a ${goTypeOf(actual)}`),
  expectedSlice: (actual: unknown): PatchError => patchEngineFailure(`expected a []interface {}, but received a ${goTypeOf(actual)}`),
  unknownPatchType: (directive: unknown, map: JsonMap): PatchError =>
    patchEngineFailure(`unknown patch type: ${goStringVerb(directive)} in map: ${goValue(map)}`),
  notAMapAt: (index: number): PatchError => patchEngineFailure(`value for key ${index} is not a map.`),
  listMergeDirective: (): PatchError => patchEngineFailure('merging lists cannot yet be specified in the patch'),
  noMergeKeyDeclared: (typeName: string): PatchError => patchEngineFailure(`cannot merge lists without merge key for ${typeName}`),
  elementTypesDiffer: (slices: unknown[][]): PatchError => patchEngineFailure(`list element types are not identical: ${goValue(slices)}`),
  noElements: (): PatchError => patchEngineFailure('no elements in any of the given slices'),
  orderMismatch: (patchList: unknown[], orderList: unknown[]): PatchError =>
    patchEngineFailure(`the order in patch list:\n${goValue(patchList)}\n doesn't match $setElementOrder list:\n${goValue(orderList)}`),
  listOfLists: (): PatchError => unprocessablePatch('lists of lists are not supported'),
  badPrimitiveListFormat: (): PatchError => malformedPatch('invalid patch format of primitive list'),
  badRetainKeysFormat: (): PatchError => malformedPatch('invalid patch format of retainKeys'),
  badSetElementOrderFormat: (): PatchError => malformedPatch('invalid patch format of setElementOrder list'),
};
