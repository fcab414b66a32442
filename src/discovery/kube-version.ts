/**
 * Kubernetes' "kube-aware" version ordering (apimachinery version.CompareKubeAwareVersionStrings):
 * GA before beta before alpha, higher major first, then higher minor; strings that are not
 * kube-like versions (v<N>[alpha|beta<M>]) come after all kube-like ones, in ascending string order.
 */

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

const STABILITY: Readonly<Record<string, number>> = { alpha: 0, beta: 1, ga: 2 };

interface ParsedVersion {
  readonly major: number;
  readonly stability: number;
  readonly minor: number;
}

function parse(version: string): ParsedVersion | undefined {
  const match = KUBE_VERSION.exec(version);
  if (match === null) return undefined;
  return {
    major: Number(match[1]),
    stability: STABILITY[match[2] ?? 'ga'] ?? 0,
    minor: match[3] === undefined ? 0 : Number(match[3]),
  };
}

/** Positive when `a` is preferred over `b`, negative when `b` is, 0 when equal. */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined && pb === undefined) return a < b ? 1 : -1;
  if (pa === undefined) return -1;
  if (pb === undefined) return 1;
  if (pa.stability !== pb.stability) return pa.stability - pb.stability;
  if (pa.major !== pb.major) return pa.major - pb.major;
  return pa.minor - pb.minor;
}
