/** The part of autocannon 8's programmatic API that scripts/soak.ts uses (the package has no types). */
declare module 'autocannon' {
  export interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: string;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    pipelining?: number;
  }

  /** Histogram summary; percentiles are keyed p50, p90, p97_5, p99, p99_9… */
  export interface AutocannonHistogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  export interface AutocannonResult {
    requests: AutocannonHistogram;
    latency: AutocannonHistogram;
    throughput: AutocannonHistogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    /** Seconds the run lasted. */
    duration: number;
  }

  export interface AutocannonRun extends PromiseLike<AutocannonResult> {
    stop(): void;
  }

  export default function autocannon(options: AutocannonOptions): AutocannonRun;
}
