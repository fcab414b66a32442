/** Orders strings by UTF-16 code units, as Go's sort.Strings orders bytes for ASCII text: no locale rules. */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
