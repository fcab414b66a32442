import { badRequest } from '../api/errors.js';

/** Typed access to the query parameters of an API request, with the apiserver's parse errors. */
export class Query {
  private readonly params: URLSearchParams;

  constructor(params: URLSearchParams) {
    this.params = params;
  }

  string(name: string): string | undefined {
    const v = this.params.get(name);
    return v === null ? undefined : v;
  }

  bool(name: string): boolean {
    const v = this.params.get(name);
    return v === 'true' || v === '1';
  }

  optionalBool(name: string): boolean | undefined {
    const v = this.params.get(name);
    if (v === null || v === '') return undefined;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw badRequest(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
  }

  int(name: string): number | undefined {
    const v = this.params.get(name);
    if (v === null || v === '') return undefined;
    if (!/^-?\d+$/.test(v)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
    return Number(v);
  }

  all(name: string): string[] {
    return this.params.getAll(name);
  }

  /** `?dryRun=All`; any other value is rejected as Kubernetes does. */
  dryRun(): string[] {
    return this.all('dryRun');
  }
}
