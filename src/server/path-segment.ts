/** path.IsValidPathSegmentName: what a name must avoid to be one segment of a storage key or URL. */
const NAME_MAY_NOT_BE = ['.', '..'];
const NAME_MAY_NOT_CONTAIN = ['/', '%'];

export function pathSegmentNameErrors(name: string): string[] {
  if (NAME_MAY_NOT_BE.includes(name)) return [`may not be '${name}'`];
  return NAME_MAY_NOT_CONTAIN.filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}
