// Retries by Retry-After, within a bound of attempts and of total time.
//
// A 429 was refused before anything was done: it is always sent again. A 503 (the store
// briefly away, a write not yet replicated) and a lost connection may have left a write
// applied: a read is sent again, and a write only when it carries an Idempotency-Key, under
// which the service answers a retry with the first answer and applies it once.

export interface RetryOptions {
  /** Tries in all, the first included (5). 1: never retried. */
  attempts?: number;
  /** No retry starts later than this after the first failure (30 000 ms). */
  maxElapsedMs?: number;
  /** The pause after the first failure without a Retry-After, doubled after each (200 ms). */
  backoffMs?: number;
  /** No single pause is longer (10 000 ms). */
  maxPauseMs?: number;
  /** Told of each retry before its pause: for logs and tests. */
  onRetry?: (retry: RetryInfo) => void;
}

export interface RetryInfo {
  method: string;
  url: string;
  /** The try that failed (1 for the first). */
  attempt: number;
  /** Its status, or undefined when the connection failed. */
  status: number | undefined;
  pauseMs: number;
}

export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
export const KEY_HEADER = "Idempotency-Key";

/** Where a bound is reached, and how long to wait before the next try otherwise. */
export class RetryBudget {
  private firstFailure = 0;
  private failures = 0;
  readonly attempts: number;
  readonly maxElapsedMs: number;
  readonly backoffMs: number;
  readonly maxPauseMs: number;

  constructor(options: RetryOptions = {}) {
    this.attempts = options.attempts ?? 5;
    this.maxElapsedMs = options.maxElapsedMs ?? 30_000;
    this.backoffMs = options.backoffMs ?? 200;
    this.maxPauseMs = options.maxPauseMs ?? 10_000;
    if (!(this.attempts >= 1)) throw new RangeError("attempts must be at least 1");
  }

  /** The pause before the next try, or undefined when no try is left. */
  next(retryAfter: string | null | undefined): number | undefined {
    if (this.failures === 0) this.firstFailure = Date.now();
    this.failures += 1;
    if (this.failures >= this.attempts) return undefined;
    const asked = retryAfterMs(retryAfter);
    const pause = Math.min(asked ?? this.backoffMs * 2 ** (this.failures - 1), this.maxPauseMs);
    if (Date.now() - this.firstFailure + pause > this.maxElapsedMs) return undefined;
    return pause;
  }

  /** A success: the next failure is a first again. */
  reset(): void {
    this.failures = 0;
  }
}

/** Milliseconds from a Retry-After field: a number of seconds, or an HTTP date. */
export function retryAfterMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const when = Date.parse(text);
  return Number.isNaN(when) ? undefined : Math.max(0, when - Date.now());
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** Whether a failed fetch never reached the server: its connection was refused. */
function neverSent(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return cause?.code === "ECONNREFUSED";
}

/** A fetch that retries as this module says, for openapi-fetch's `fetch` option. */
export function retrying(options: RetryOptions = {}, base: typeof fetch = globalThis.fetch) {
  return async (request: Request, init?: RequestInit): Promise<Response> => {
    const budget = new RetryBudget(options);
    const repeatable = SAFE_METHODS.has(request.method) || request.headers.has(KEY_HEADER);
    for (let attempt = 1; ; attempt += 1) {
      let response: Response;
      try {
        response = await base(request.clone(), init);
      } catch (error) {
        if (request.signal.aborted || !(repeatable || neverSent(error))) throw error;
        const pause = budget.next(undefined);
        if (pause === undefined) throw error;
        const { method, url } = request;
        options.onRetry?.({ method, url, attempt, status: undefined, pauseMs: pause });
        await sleep(pause, request.signal);
        continue;
      }
      const again = response.status === 429 || (response.status === 503 && repeatable);
      if (!again) return response;
      const pause = budget.next(response.headers.get("Retry-After"));
      if (pause === undefined) return response;
      await response.body?.cancel();
      const { method, url } = request;
      options.onRetry?.({ method, url, attempt, status: response.status, pauseMs: pause });
      await sleep(pause, request.signal);
    }
  };
}
