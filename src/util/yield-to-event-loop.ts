/**
 * Long chains of in-process work (a 10,000-object cascade, an informer catching up) never touch real I/O, so they
 * would run as one unbroken series of promise callbacks and starve the HTTP server. Loops call `maybeYield()` per
 * item; once `budgetMs` of work has passed since the last yield, it waits one macrotask turn.
 */
let sliceStart = performance.now();

export async function maybeYield(budgetMs = 10): Promise<void> {
  if (performance.now() - sliceStart < budgetMs) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  sliceStart = performance.now();
}
