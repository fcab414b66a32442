import { StatusError } from '../../api/errors.js';
import type { StatusDetails } from '../../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import type { AuthorizationAttributes } from '../authorizer.js';

/** kube-apiserver keeps error text from looking like HTML; quotes stay as they are. */
export function sanitizeForHtml(text: string): string {
  return text.replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'));
}

/** responsewriters.forbiddenMessage: who cannot do what, where. */
function forbiddenMessage(attributes: AuthorizationAttributes): string {
  const user = goQuote(attributes.user.name);
  if (!attributes.resourceRequest) return `User ${user} cannot ${attributes.verb} path ${goQuote(attributes.path)}`;
  const resource = attributes.subresource === '' ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  const scope = attributes.namespace === '' ? 'at the cluster scope' : `in the namespace ${goQuote(attributes.namespace)}`;
  return `User ${user} cannot ${attributes.verb} resource ${goQuote(resource)} in API group ${goQuote(attributes.apiGroup)} ${scope}`;
}

/**
 * The 403 an authorizer's refusal produces (responsewriters.Forbidden): apierrors.NewForbidden over the request's
 * group and resource, with the authorizer's reason appended when it gave one.
 */
export function forbidden(attributes: AuthorizationAttributes, reason: string): StatusError {
  const message = sanitizeForHtml(forbiddenMessage(attributes));
  const why = reason === '' ? message : `${message}: ${reason}`;
  const group = attributes.resourceRequest ? attributes.apiGroup : '';
  const resource = attributes.resourceRequest ? attributes.resource : '';
  const name = attributes.resourceRequest ? attributes.name : '';
  const details: StatusDetails = {};
  if (name !== '') details.name = name;
  if (group !== '') details.group = group;
  if (resource !== '') details.kind = resource;
  if (group === '' && resource === '') return new StatusError(403, 'Forbidden', `forbidden: ${why}`, details);
  const qualified = group === '' ? resource : `${resource}.${group}`;
  const what = name === '' ? qualified : `${qualified} ${goQuote(name)}`;
  return new StatusError(403, 'Forbidden', `${what} is forbidden: ${why}`, details);
}
