/**
 * Long chains of in-process work (a 10,000-object cascade, an informer catching up) never touch real I/O, so they
 * would run as one unbroken series of promise callbacks and starve the HTTP server. Loops call `maybeYield()` per
 * item; once `budgetMs` of work has passed since the event loop last turned, every caller waits for the same next
 * turn. Sharing that turn matters: if each waiting worker got its own, twenty workers would each take a fresh
 * budget one after another inside a single turn.
 */
let sliceStart = performance.now();
let nextTurn: Promise<void> | undefined;

/**
 * Undefined while the budget lasts, so that hot loops can skip the await (`const turn = maybeYield(); if (turn)
 * await turn;`): a cascade passes here once per object.
 */
export function maybeYield(budgetMs = 10): Promise<void> | undefined {
  if (performance.now() - sliceStart < budgetMs) return undefined;
  nextTurn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      nextTurn = undefined;
      sliceStart = performance.now();
      resolve();
    }),
  );
  return nextTurn;
}
