/** Measures the longest time the event loop went without running a macrotask (so without serving a request). */
export interface LoopStallMeter {
  /** Waits for one more turn of the loop and returns the longest gap between turns, in ms. */
  stop(): Promise<number>;
}

export function meterLoopStalls(): LoopStallMeter {
  let last = performance.now();
  let longest = 0;
  let running = true;
  let lastTurn: (() => void) | undefined;
  const turn = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(turn);
    else lastTurn?.();
  };
  setImmediate(turn);
  return {
    stop: () =>
      new Promise<number>((resolve) => {
        running = false;
        lastTurn = () => resolve(longest);
      }),
  };
}
