/**
 * `npm run tiles` progress: on a terminal one line rewritten in place ("\rlayers 5/9"); in a
 * log or a pipe (not a TTY, where "\r" does not go back) whole lines, one per tenth of the
 * layers and one at the end, so that they neither run together nor flood the log.
 */
export interface ProgressPrinter {
  update(done: number, total: number): void;
  /** Ends the in-place line (a terminal), before other lines are printed. */
  finish(): void;
}

export function tilesProgress(out: { isTTY?: boolean; write(text: string): unknown }): ProgressPrinter {
  if (out.isTTY) {
    let shown = false;
    return {
      update: (done, total) => {
        shown = true;
        out.write(`\rlayers ${done}/${total}`);
      },
      finish: () => {
        if (shown) out.write('\n');
        shown = false;
      },
    };
  }
  let lastStep = -1;
  return {
    update: (done, total) => {
      // Tenths reached (0 at the start); the last line always.
      const step = total > 0 ? Math.floor((done * 10) / total) : 10;
      if (step === lastStep) return;
      lastStep = step;
      out.write(`layers ${done}/${total}\n`);
    },
    finish: () => undefined,
  };
}
