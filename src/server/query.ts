import { badRequest } from '../api/errors.js';
import { GoNumberError, goBool, parseInt64 } from '../api/go-strconv.js';

/**
 * Typed access to the query parameters of an API request, converted as apimachinery converts url.Values into
 * its option structs: the first value of a repeated parameter counts, and a malformed number is a 400 carrying
 * strconv's message.
 */
export class Query {
  private readonly params: URLSearchParams;

  constructor(params: URLSearchParams) {
    this.params = params;
  }

  /** The first value; "" when the parameter is present without one. */
  string(name: string): string | undefined {
    const v = this.params.get(name);
    return v === null ? undefined : v;
  }

  /** A plain bool field: false when absent, "0" or "false" in any case; true otherwise, "" and "True" included. */
  bool(name: string): boolean {
    return goBool(this.params.get(name));
  }

  /** A *bool field: undefined when absent, otherwise as bool(). */
  optionalBool(name: string): boolean | undefined {
    const v = this.params.get(name);
    return v === null ? undefined : goBool(v);
  }

  /** An int64 field: undefined when absent; a present value, even "", must parse as strconv.ParseInt does. */
  int(name: string): number | undefined {
    const v = this.params.get(name);
    if (v === null) return undefined;
    try {
      return parseInt64(v);
    } catch (err) {
      if (err instanceof GoNumberError) throw badRequest(err.message);
      throw err;
    }
  }

  all(name: string): string[] {
    return this.params.getAll(name);
  }

  /** `?dryRun=All`; any other value is rejected as Kubernetes does. */
  dryRun(): string[] {
    return this.all('dryRun');
  }
}
