/**
 * How fresh the server's marker lists are (server/http/json-cache.ts): a list read at least
 * LIST_MAX_STALE_MS after a write was acknowledged always holds it; a read sooner may still get
 * the list from before it (rebuilt off the request path). A page whose live feed just started
 * listening checks its list LIST_SETTLE_MS later, so a change made just before it listened (not
 * sent to it live) is still found.
 */
export const LIST_MAX_STALE_MS = 100;

/** The wait before a page checks its list after its live feed listens: the bound above and a margin. */
export const LIST_SETTLE_MS = LIST_MAX_STALE_MS + 50;
