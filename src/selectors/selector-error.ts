/**
 * A selector the server cannot use. The request handler answers it with `Status(400, BadRequest)` carrying
 * exactly this message, as the apiserver does for parse and field-label conversion failures.
 */
export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}
