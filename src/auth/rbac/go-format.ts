/**
 * Kubernetes builds its RBAC messages with Go's fmt verbs; clients and tests compare them byte for byte, so the
 * same quoting is reproduced here.
 */

import { goQuote } from '../../util/go-quote.js';

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** The message of apimachinery's errors.NewAggregate: one message alone, several (deduplicated) in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (messages.length === 1 || unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}
