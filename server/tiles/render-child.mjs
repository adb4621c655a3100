// resvg in a child process for render-pool.ts: resvg 2.6 can panic in Rust and abort its
// whole process, so it must not run in the server's. Plain JavaScript so that it starts the
// same under node, tsx and vitest (forked with no loader). Messages use advanced serialization.
// In:  { id, kind: 'render', svg, options }   → { id, width, height, pixels }
//                                               (pixels: RGBA, premultiplied, as resvg leaves them)
//      { id, kind: 'normalize', doc, font }   → { id, text }  (resvg's normalised SVG, Resvg#toString)
// Either may answer { id, error } (resvg refused the document; the child lives on).
import { Resvg } from '@resvg/resvg-js';

// Tests only: resvg's writer has no known panic of its own, so a document holding this text
// is also rasterised while it is normalised; one resvg panics on then really crashes the
// normaliser (normalize.test.ts). Unset in production.
const TEST_PANIC_MARKER = process.env.TILES_TEST_NORMALIZE_PANIC_MARKER;

process.on('message', (msg) => {
  const { id } = msg;
  let reply;
  try {
    if (msg.kind === 'normalize') {
      const resvg = new Resvg(msg.doc, { font: msg.font, logLevel: 'off' });
      if (TEST_PANIC_MARKER && msg.doc.includes(TEST_PANIC_MARKER)) resvg.render();
      reply = { id, text: resvg.toString() };
    } else {
      const image = new Resvg(msg.svg, msg.options).render();
      reply = { id, width: image.width, height: image.height, pixels: image.pixels };
    }
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  process.send(reply);
});

// The server went away (exit, crash, kill -9): nothing is left to do.
process.on('disconnect', () => process.exit(0));
