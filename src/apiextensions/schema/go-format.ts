/**
 * Go's `%v` of a float64, which kube-openapi messages embed: shortest digits, exponent form from 1e+06 and
 * below 1e-04. (Their `%q` of a string is selectors/go-quote.ts.)
 */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa = '', exp = '0'] = n.toExponential().split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(n);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}
