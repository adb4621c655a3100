/**
 * `npm run tiles` progress: on a terminal one line rewritten in place ("\rlayers 5/9"); in a
 * log or a pipe (not a TTY, where "\r" does not go back) whole lines, one per tenth of the
 * layers and one at the end, so that they neither run together nor flood the log. The layers
 * of a map that failed are finished but not built: "layers 0/3, 3 failed", never "3/3".
 */
export interface ProgressPrinter {
  /** As prepareAllTiles' onProgress: done counts the layers finished, built or failed; failed, those of maps that failed. */
  update(done: number, total: number, failed?: number): void;
  /** Ends the in-place line (a terminal), before other lines are printed. */
  finish(): void;
}

const line = (done: number, total: number, failed: number) => `layers ${done - failed}/${total}${failed ? `, ${failed} failed` : ''}`;

export function tilesProgress(out: { isTTY?: boolean; write(text: string): unknown }): ProgressPrinter {
  if (out.isTTY) {
    let shown = false;
    return {
      update: (done, total, failed = 0) => {
        shown = true;
        out.write(`\r${line(done, total, failed)}`);
      },
      finish: () => {
        if (shown) out.write('\n');
        shown = false;
      },
    };
  }
  let lastStep = -1;
  return {
    update: (done, total, failed = 0) => {
      // Tenths reached (0 at the start); the last line always.
      const step = total > 0 ? Math.floor((done * 10) / total) : 10;
      if (step === lastStep) return;
      lastStep = step;
      out.write(`${line(done, total, failed)}\n`);
    },
    finish: () => undefined,
  };
}
