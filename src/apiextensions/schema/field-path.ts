/** Builders for apimachinery field paths (`field.Path`): `a.b`, `a[key]`, `a[0]`. */
export function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}
