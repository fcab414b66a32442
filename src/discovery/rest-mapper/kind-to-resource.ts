/** apimachinery's UnsafeGuessKindToResource (R7.5): the plural and singular resource a kind name suggests. */

/** Resource suffixes whose plural and singular are the same word. */
const UNPLURALIZED_SUFFIXES = ['endpoints'];

export function guessKindToResource(kind: string): { plural: string; singular: string } {
  if (kind === '') return { plural: '', singular: '' };
  const singular = kind.toLowerCase();
  if (UNPLURALIZED_SUFFIXES.some((suffix) => singular.endsWith(suffix))) return { plural: singular, singular };
  if (singular.endsWith('s')) return { plural: `${singular}es`, singular };
  if (singular.endsWith('y')) return { plural: `${singular.slice(0, -1)}ies`, singular };
  return { plural: `${singular}s`, singular };
}
