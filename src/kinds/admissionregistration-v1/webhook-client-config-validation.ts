import { type FieldError, fieldError } from '../../api/errors.js';
import { isObject } from '../../api/types.js';
import { isDns1123Subdomain } from '../../validation/names.js';

/**
 * The client configuration checks of k8s.io/apiserver's util/webhook (ValidateWebhookURL, ValidateWebhookService),
 * shared by admission webhooks and, later, CRD conversion webhooks (R11.16–R11.18).
 */

const FORM = '; desired format: https://host[/path]';

interface GoUrl {
  readonly scheme: string;
  readonly userinfo: string | undefined;
  readonly host: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

/** The parts Go's url.Parse finds in a URL, for the few it is asked about here; undefined when it would fail. */
export function parseGoUrl(raw: string): GoUrl | undefined {
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (scheme === null && /^[^/?]*:/.test(rest)) return undefined; // "missing protocol scheme"
  const schemeName = scheme?.[1]?.toLowerCase() ?? '';
  if (scheme !== null) rest = rest.slice(scheme[0].length);
  let rawQuery = '';
  const question = rest.indexOf('?');
  if (question >= 0) {
    rawQuery = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  let host = '';
  let userinfo: string | undefined;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    let authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      userinfo = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    host = authority;
  }
  return { scheme: schemeName, userinfo, host, rawQuery, fragment };
}

/** ValidateWebhookURL with https forced, as admission and conversion webhooks use it. */
export function validateWebhookUrl(path: string, raw: string): FieldError[] {
  const u = parseGoUrl(raw);
  if (u === undefined)
    return [fieldError.required(path, `url must be a valid URL: parse ${JSON.stringify(raw)}: missing protocol scheme${FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(fieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') errs.push(fieldError.invalid(path, u.host, `host must be specified${FORM}`));
  if (u.userinfo !== undefined) errs.push(fieldError.invalid(path, u.userinfo, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(fieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errs.push(fieldError.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService: name, namespace, port and a path of lowercase DNS-subdomain segments. */
export function validateWebhookService(path: string, service: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof service.name === 'string' ? service.name : '';
  const namespace = typeof service.namespace === 'string' ? service.namespace : '';
  const port = typeof service.port === 'number' ? service.port : 443;
  if (name === '') errs.push(fieldError.required(`${path}.name`, 'service name is required'));
  if (namespace === '') errs.push(fieldError.required(`${path}.namespace`, 'service namespace is required'));
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errs.push(fieldError.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (typeof service.path !== 'string') return errs;
  const urlPath = service.path;
  const at = `${path}.path`;
  if (urlPath === '' || urlPath === '/') return errs;
  if (urlPath === '//') return [...errs, fieldError.invalid(at, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldError.invalid(at, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((segment, i) => {
    if (segment === '') {
      errs.push(fieldError.invalid(at, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const problem of isDns1123Subdomain(segment)) errs.push(fieldError.invalid(at, urlPath, `segment[${i}]: ${problem}`));
  });
  return errs;
}

/** Exactly one of url or service (R11.16), each then checked by its own rules. */
export function validateClientConfig(path: string, clientConfig: unknown): FieldError[] {
  const cc = isObject(clientConfig) ? clientConfig : {};
  const hasUrl = typeof cc.url === 'string';
  const hasService = isObject(cc.service);
  if (hasUrl === hasService) return [fieldError.required(path, 'exactly one of url or service is required')];
  if (hasUrl) return validateWebhookUrl(`${path}.url`, cc.url as string);
  return validateWebhookService(`${path}.service`, cc.service as Record<string, unknown>);
}
