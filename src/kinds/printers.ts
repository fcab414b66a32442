import { DEFAULT_PRINTER } from '../tables/default-convertor.js';
import type { Printer } from '../tables/printer.js';
import { builtinKind } from './index.js';

/** The Table printer of a built-in kind; kinds without one use apiserver's DefaultTableConvertor. */
export function printerFor(kind: string, group: string): Printer {
  return builtinKind(group, kind)?.printer ?? DEFAULT_PRINTER;
}
