/*
 * The stream overlay (/map/{map}?overlay=1) is see-through from the very first paint. index.html
 * loads this file as a classic script in <head>: the parser waits for it, so <html> has the
 * class before <body> exists, and the rules of overlay.css (in the entry's stylesheet, which
 * the first paint waits for) apply to that paint. Set from the app (a React effect, or even
 * the entry module, which runs only once all its chunks are in), the page painted its dark
 * background for a few hundred ms first, and OBS showed a dark flash at every load.
 * A file, not an inline script: the CSP allows scripts from 'self' only. The accepted values
 * are parseOverlayParams's (src/domain/overlay.ts; overlayFirstPaint.test.ts keeps them equal).
 */
(function () {
  try {
    var flag = new URLSearchParams(window.location.search).get('overlay');
    if (flag !== null && ['1', 'true', 'yes', 'on'].indexOf(flag.trim().toLowerCase()) >= 0) {
      document.documentElement.classList.add('stream-overlay');
    }
  } catch {
    // A browser without URLSearchParams: the app adds the class once it runs (useOverlayDocument).
  }
})();
