// A resvg rasteriser in a child process for render-pool.ts: resvg 2.6 can panic in Rust and
// abort its whole process, so it must not run in the server's. Plain JavaScript so that it
// starts the same under node, tsx and vitest (forked with no loader).
// In:  { id, svg, options }            (advanced serialization)
// Out: { id, width, height, pixels }   (pixels: RGBA, premultiplied, as resvg leaves them)
//  or  { id, error }                   (resvg refused the document; the child lives on)
import { Resvg } from '@resvg/resvg-js';

process.on('message', ({ id, svg, options }) => {
  let reply;
  try {
    const image = new Resvg(svg, options).render();
    reply = { id, width: image.width, height: image.height, pixels: image.pixels };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  process.send(reply);
});

// The server went away (exit, crash, kill -9): nothing is left to render for.
process.on('disconnect', () => process.exit(0));
