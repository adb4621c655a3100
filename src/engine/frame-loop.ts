/**
 * Render on demand: a frame runs only after `invalidate()` (camera moved, tile arrived,
 * markers changed, …) or while the frame callback asks for another (an animation runs).
 * Any number of invalidations before the next animation frame make one frame.
 */
export class FrameLoop {
  private handle: number | null = null;
  private disposed = false;

  constructor(
    private readonly onFrame: (now: number) => boolean,
    private readonly raf: (cb: FrameRequestCallback) => number = (cb) => requestAnimationFrame(cb),
    private readonly caf: (handle: number) => void = (h) => cancelAnimationFrame(h),
  ) {}

  invalidate(): void {
    if (this.disposed || this.handle !== null) return;
    this.handle = this.raf((now) => this.tick(now));
  }

  get scheduled(): boolean {
    return this.handle !== null;
  }

  dispose(): void {
    this.disposed = true;
    if (this.handle !== null) this.caf(this.handle);
    this.handle = null;
  }

  private tick(now: number): void {
    this.handle = null;
    if (this.disposed) return;
    const again = this.onFrame(now);
    if (again) this.invalidate();
  }
}
