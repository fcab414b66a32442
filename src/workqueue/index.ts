export { type Cancel, type Clock, FakeClock, realClock } from './clock.js';
export { createDelayingQueue, type DelayingQueue, type DelayingQueueOptions } from './delaying-queue.js';
export { createQueueMetrics, createQueueMetricsRegistry, type QueueMetrics, type QueueMetricsRegistry } from './metrics.js';
export { createQueue, type KeyOf, type Queue, type QueueOptions } from './queue.js';
export { createRateLimitedQueue, type RateLimitedQueue, type RateLimitedQueueOptions } from './rate-limited-queue.js';
export {
  type ControllerRateLimiterOptions,
  createBucketRateLimiter,
  createDefaultControllerRateLimiter,
  createItemExponentialFailureRateLimiter,
  createMaxOfRateLimiter,
  type ExponentialBackoffOptions,
  type RateLimiter,
  type TokenBucketOptions,
} from './rate-limiter.js';
