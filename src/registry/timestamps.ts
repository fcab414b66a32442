let lastSecond = Number.NaN;
let lastSecondText = '';

/** RFC 3339 with second precision, as metav1.Time serialises; formatting is cached per second (hot on create). */
export function nowSeconds(clock: () => Date, offsetSeconds = 0): string {
  const second = Math.floor(clock().getTime() / 1000) + offsetSeconds;
  if (second !== lastSecond) {
    lastSecond = second;
    lastSecondText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  }
  return lastSecondText;
}
