import { type FieldError, fieldError, invalid } from '../../api/errors.js';
import type { ResourceRequest } from '../api-context.js';

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

const MAX_MANAGER_BYTES = 128;

/** Go's unicode.IsPrint, which ValidateFieldManager and the User-Agent fallback both use. */
function isPrintable(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

function optionsInvalid(kind: OptionsKind, errs: FieldError[]): ReturnType<typeof invalid> {
  return invalid(`${kind}.meta.k8s.io`, 'meta.k8s.io', kind, '', errs);
}

/** ValidateFieldManager (R10.8): at most 128 bytes of printable characters. */
function fieldManagerErrors(manager: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > MAX_MANAGER_BYTES) errs.push(fieldError.tooLong('fieldManager', MAX_MANAGER_BYTES));
  let position = 0;
  for (const ch of manager) {
    if (!isPrintable(ch)) {
      const code = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errs.push(fieldError.invalid('fieldManager', manager, `invalid character U+${code} (at position ${position})`));
      break;
    }
    position += Buffer.byteLength(ch);
  }
  return errs;
}

/**
 * managerOrUserAgent (R10.39): the `fieldManager` parameter, validated, or the User-Agent up to its first "/",
 * printable characters only, cut to 128 bytes; "unknown" when that leaves nothing.
 */
export function updateManager(r: ResourceRequest, kind: OptionsKind): string {
  const given = r.query.string('fieldManager');
  if (given !== undefined && given !== '') {
    const errs = fieldManagerErrors(given);
    if (errs.length > 0) throw optionsInvalid(kind, errs);
    return given;
  }
  const agent = (r.req.headers['user-agent'] ?? '').split('/')[0] ?? '';
  let out = '';
  for (const ch of agent) {
    if (!isPrintable(ch)) continue;
    if (Buffer.byteLength(out + ch) > MAX_MANAGER_BYTES) break;
    out += ch;
  }
  return out === '' ? 'unknown' : out;
}

/** R10.9: `force` belongs to apply only. */
export function refuseForce(r: ResourceRequest): void {
  if (r.query.string('force') !== undefined) {
    throw optionsInvalid('PatchOptions', [fieldError.forbidden('force', 'may not be specified for non-apply patch')]);
  }
}

/** R10.7, R10.8: an apply names its manager. */
export function applyManager(r: ResourceRequest): string {
  return checkApplyManager(r.query.string('fieldManager') ?? '');
}

/** The `fieldManager` of an apply, however it came (query or in-process client), checked as R10.7 and R10.8 say. */
export function checkApplyManager(given: string): string {
  if (given === '') throw optionsInvalid('PatchOptions', [fieldError.required('fieldManager', 'is required for apply patch')]);
  const errs = fieldManagerErrors(given);
  if (errs.length > 0) throw optionsInvalid('PatchOptions', errs);
  return given;
}
