/**
 * A per-frame time budget for work that can wait for the next frame (tile uploads, new label
 * texts): the first piece always runs, so the work never stalls, and later pieces run only
 * while time is left (and below an optional count cap). The clock is injected: pure and testable.
 */
export class FrameBudget {
  private started = 0;
  private count = 0;
  private frameBudgetMs: number;

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number,
    private readonly maxCount = Number.POSITIVE_INFINITY,
  ) {
    if (!(budgetMs >= 0)) throw new RangeError(`budget must be ≥ 0 ms, got ${budgetMs}`);
    if (!(maxCount >= 1)) throw new RangeError(`maxCount must be ≥ 1, got ${maxCount}`);
    this.frameBudgetMs = budgetMs;
  }

  /** Starts a frame's budget: the default one, or `budgetMs` for this frame only. */
  start(budgetMs = this.budgetMs): void {
    this.started = this.now();
    this.count = 0;
    this.frameBudgetMs = budgetMs;
  }

  /** True (and counted) when one more piece may run now: always the first, then while time is left. */
  take(): boolean {
    if (this.count > 0 && (this.count >= this.maxCount || this.now() - this.started >= this.frameBudgetMs)) return false;
    this.count++;
    return true;
  }

  /** Pieces taken since start(). */
  get taken(): number {
    return this.count;
  }
}
