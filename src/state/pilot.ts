/**
 * The live position feed (issue 10) on this page, two sides:
 *
 * - `pilot`, the **follower**: the code this page watches, the feed's status, the last position
 *   and map the publisher sent. The code is remembered (`pilot:connection`), so a map page
 *   opened later reconnects to it without a click (resume). A code the server said is gone is
 *   remembered as gone (`pilot:connection-gone`): later pages show it gone without asking the
 *   server again, until the visitor reconnects or forgets it. A 429 stops the feed until the
 *   wait the server asked for is over. Positions go to the where-am-I marker (state/player)
 *   while the page shows the publisher's map; a map change is left for the map page to follow
 *   (takeMapChange).
 * - `pilotPublisher`, the **publisher** on /pilot: the pairing made here (code and token,
 *   remembered as `pilot:pairing` so a reload keeps publishing to the same code), what was
 *   last sent and how many pages watch.
 */
import { proxy } from 'valtio';
import {
  checkPairing,
  createPairing,
  pilotRateLimit,
  publishPilot,
  subscribePilot,
  unpair,
  type Pairing,
  type PilotEndReason,
  type PilotFeedState,
  type PilotRateLimit,
} from '../api/pilot';
import { ApiError } from '../api/client';
import { MAP_IDS, type MapId } from '../domain/maps';
import { normalizePairingCode, pilotPositionSchema, type PilotEvent, type PilotMessage } from '../domain/pilot';
import type { PlayerPosition } from '../domain/position';
import { setPlayerPosition } from './player';
import { readStored, writeStored } from './storage';

export const PILOT_CODE_KEY = 'pilot:connection';
export const PILOT_PAIRING_KEY = 'pilot:pairing';
/** What the pairing's page last sent (`{ code, position, positionAt, map, mapAt }`), kept with the pairing. */
export const PILOT_SENT_KEY = 'pilot:sent';
/** The remembered code, when the server said it is gone (the same text as PILOT_CODE_KEY). */
export const PILOT_GONE_KEY = 'pilot:connection-gone';
/**
 * In this tab's sessionStorage: the newest map change of the code followed that the tab already
 * answered (`{ code, at }`), so a reload or an address typed in the same tab leaves a visitor
 * who chose another map by hand where they are, while a later change by the player still moves
 * them (docs/PILOT-PAGE.md, "A map change").
 */
export const PILOT_MAP_HANDLED_KEY = 'pilot:map-handled';
/** The wait after a 429 that named none. */
const DEFAULT_LIMITED_S = 60;
/**
 * A position older than this is shown stale: the marker faded with no ping, the top bar says
 * when the player was last seen (docs/DECISIONS.md "A live position that stops coming"). The
 * watcher sends a position per screenshot, so two minutes without one means the player stopped
 * taking them, left the raid or closed the watcher.
 */
export const PILOT_STALE_MS = 2 * 60_000;

/** Why the server ended a code's stream (its `end` event), when it said. */
export type { PilotEndReason };

export type PilotStatus = PilotFeedState;

export interface PilotState {
  /** The code this page follows (canonical, 10 characters), or null. */
  code: string | null;
  status: PilotStatus;
  /** Server time (epoch ms) of the last position received, or null. */
  lastUpdateAt: number | null;
  lastPosition: PlayerPosition | null;
  /** The publisher's map, once it said, and when. */
  lastMap: MapId | null;
  lastMapAt: number | null;
  /** Pages watching the code (this one included), read each time the feed connects. */
  watchers: number | null;
  /** While 'limited': when (epoch ms) the feed tries again by itself. */
  retryAt: number | null;
  /** The `?connection=` text of the link this page was opened with, when it is no code (nothing is followed then). */
  linkProblem: string | null;
  /** The map the page shows, while a map page follows (null: none). */
  pageMap: MapId | null;
  /** True while the where-am-I marker shows the feed's position and it is older than PILOT_STALE_MS. */
  stale: boolean;
  /** While 'gone': why, when the server's `end` event said (null: a 404, or remembered as gone). */
  endReason: PilotEndReason | null;
  /** The visitor pressed Reconnect on a gone code and the server still does not know it. */
  stillGone: boolean;
}

export const pilot = proxy<PilotState>({
  code: null,
  status: 'off',
  lastUpdateAt: null,
  lastPosition: null,
  lastMap: null,
  lastMapAt: null,
  watchers: null,
  retryAt: null,
  linkProblem: null,
  pageMap: null,
  stale: false,
  endReason: null,
  stillGone: false,
});

let stopFeed: (() => void) | null = null;
/** The map the page shows (positions of another map are kept, not drawn); mirrored in `pilot.pageMap`. */
let pageMap: MapId | null = null;
/** The newest map change the page already followed (or chose not to). */
let mapHandledAt = -Infinity;
/** When the position on the where-am-I marker, if the feed put it there, was sent. */
let appliedAt: number | null = null;
/** The feed's next try after a 429. */
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** When the marker's position turns stale. */
let staleTimer: ReturnType<typeof setTimeout> | undefined;
/** Reconnect was pressed on a gone code: a new 'gone' is "still not found". */
let retryingGone = false;

function setPageMap(map: MapId | null): void {
  pageMap = map;
  pilot.pageMap = map;
}

function readSession(key: string): string | null {
  try {
    return globalThis.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeSession(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.sessionStorage.removeItem(key);
    else globalThis.sessionStorage.setItem(key, value);
  } catch {
    // No sessionStorage (private mode, a sandbox): a reload asks again, as before.
  }
}

/** The newest map change of `code` this tab answered before (a reload), or -Infinity. */
function handledInTab(code: string | null): number {
  const text = readSession(PILOT_MAP_HANDLED_KEY);
  if (!code || !text) return -Infinity;
  try {
    const value = JSON.parse(text) as { code?: unknown; at?: unknown };
    return value.code === code && typeof value.at === 'number' && Number.isFinite(value.at) ? value.at : -Infinity;
  } catch {
    return -Infinity;
  }
}

/** True when a position sent at `at` (server time, epoch ms) is stale at `now`. */
export function isStalePosition(at: number | null, now: number): boolean {
  return at !== null && now - at >= PILOT_STALE_MS;
}

/** `pilot.stale` for the marker now, and a timer for when it turns stale. */
function updateStale(): void {
  clearTimeout(staleTimer);
  staleTimer = undefined;
  const at = appliedAt;
  pilot.stale = at !== null && isStalePosition(at, Date.now());
  if (at !== null && !pilot.stale) {
    staleTimer = setTimeout(updateStale, Math.max(0, at + PILOT_STALE_MS - Date.now()));
  }
}

/** Takes the feed's position off the where-am-I marker (a position the visitor set stays). */
function clearAppliedPosition(): void {
  if (appliedAt === null) return;
  appliedAt = null;
  updateStale();
  setPlayerPosition(null);
}

/** The remembered code, or null. */
export function rememberedPilotCode(): string | null {
  const stored = readStored(PILOT_CODE_KEY);
  return stored ? normalizePairingCode(stored) : null;
}

/** True when the server said `code` is gone (and nobody asked to reconnect since). */
function knownGone(code: string): boolean {
  return readStored(PILOT_GONE_KEY) === code;
}

function markGone(code: string | null): void {
  writeStored(PILOT_GONE_KEY, code);
}

function cancelRetry(): void {
  clearTimeout(retryTimer);
  retryTimer = undefined;
}

function resetFeedData(): void {
  pilot.lastUpdateAt = null;
  pilot.lastPosition = null;
  pilot.lastMap = null;
  pilot.lastMapAt = null;
  pilot.watchers = null;
  pilot.endReason = null;
  pilot.stillGone = false;
  retryingGone = false;
  mapHandledAt = -Infinity;
  appliedAt = null;
  updateStale();
}

function showsPublisherMap(): boolean {
  return pageMap !== null && (pilot.lastMap === null || pilot.lastMap === pageMap);
}

function applyPosition(): void {
  if (!pilot.lastPosition || pilot.lastUpdateAt === null || !showsPublisherMap()) return;
  appliedAt = pilot.lastUpdateAt;
  // Before the marker moves: an old position (a page opened long after the last one) is drawn stale, with no ping.
  updateStale();
  setPlayerPosition(pilot.lastPosition);
}

function onEvent(event: PilotEvent): void {
  if (event.type === 'position') {
    // A position from before the last map change was taken on the previous map.
    if (pilot.lastMapAt !== null && event.at < pilot.lastMapAt) return;
    pilot.lastPosition = { ...event.data };
    pilot.lastUpdateAt = event.at;
    applyPosition();
    return;
  }
  if (pilot.lastMapAt !== null && event.at < pilot.lastMapAt) return;
  // The same map again (a publisher's resend after a server restart, the map chosen twice): the
  // player is still where the last position said; keep it, and the time of the actual change.
  if (event.data.map === pilot.lastMap) return;
  pilot.lastMap = event.data.map;
  pilot.lastMapAt = event.at;
  if (pilot.lastUpdateAt !== null && pilot.lastUpdateAt < event.at) {
    // Another map: the last position was on the map before. The page goes to the new map
    // (takeMapChange) and shows no marker until the first position there (the top bar says so).
    pilot.lastPosition = null;
    pilot.lastUpdateAt = null;
    // The marker showed the position on the previous map: take it off.
    if (appliedAt !== null && appliedAt < event.at) clearAppliedPosition();
  }
}

/** The server refused this address for a while: stop and try again once the wait is over. */
function waitForRetry(code: string, retryAt: number): void {
  const stop = stopFeed;
  stopFeed = null;
  stop?.();
  pilot.status = 'limited';
  pilot.retryAt = retryAt;
  cancelRetry();
  retryTimer = setTimeout(
    () => {
      retryTimer = undefined;
      if (pilot.code === code && pilot.status === 'limited' && pageMap !== null) openFeed(code);
    },
    Math.max(0, retryAt - Date.now()),
  );
}

/**
 * The feed's state. `endReason`: why the server's `end` event ended the stream, when the API
 * passes it on (src/api/pilot.ts subscribePilot: `onState('gone', undefined, reason)`).
 */
function onState(status: PilotFeedState, code: string, limited?: PilotRateLimit, endReason?: PilotEndReason): void {
  if (pilot.code !== code) return;
  if (status === 'limited') {
    retryingGone = false;
    waitForRetry(code, Date.now() + (limited?.retryAfterS ?? DEFAULT_LIMITED_S) * 1000);
    return;
  }
  pilot.status = status;
  if (status === 'gone') {
    markGone(code);
    pilot.endReason = endReason === 'deleted' || endReason === 'expired' ? endReason : null;
    pilot.stillGone = retryingGone;
    retryingGone = false;
    // The session ended: the player is no longer shown where they were.
    clearAppliedPosition();
  }
  if (status === 'connected') {
    retryingGone = false;
    pilot.stillGone = false;
    pilot.retryAt = null;
    checkPairing(code).then(
      (info) => {
        if (pilot.code === code && info) pilot.watchers = info.watchers;
      },
      () => undefined,
    );
  }
}

function openFeed(code: string): void {
  stopFeed?.();
  cancelRetry();
  pilot.status = 'reconnecting';
  pilot.retryAt = null;
  let stop: (() => void) | null = null;
  stop = subscribePilot(
    code,
    (event) => {
      if (stopFeed === stop) onEvent(event);
    },
    (status: PilotFeedState, limited?: PilotRateLimit, endReason?: PilotEndReason) => {
      if (stop === null || stopFeed === stop) onState(status, code, limited, endReason);
    },
  );
  stopFeed = stop;
}

/**
 * Follows `code` (as typed: case, spaces and dashes do not matter) and remembers it; `map` is
 * the map the page shows. Following the code already followed keeps its feed. Asked for by the
 * visitor (a link, a typed code), so a code remembered as gone is asked for again. Returns
 * false when the text is not a code.
 */
export function connect(input: string, map: MapId | null = pageMap): boolean {
  const code = normalizePairingCode(input);
  if (!code) return false;
  pilot.linkProblem = null;
  if (knownGone(code)) markGone(null);
  return follow(code, map);
}

function follow(code: string, map: MapId | null): boolean {
  setPageMap(map);
  writeStored(PILOT_CODE_KEY, code);
  if (pilot.code !== code) {
    pilot.code = code;
    resetFeedData();
  } else if (stopFeed && (pilot.status === 'connected' || pilot.status === 'reconnecting')) {
    applyPosition();
    return true;
  } else if (pilot.retryAt !== null && pilot.retryAt > Date.now()) {
    // Still refused: wait out what the server asked rather than ask again.
    waitForRetry(code, pilot.retryAt);
    return true;
  }
  openFeed(code);
  return true;
}

/**
 * A map page opened: follows the code followed before, with no click, unless the server said
 * it is gone (then it is shown gone and nothing is asked) or the page's link carried a text
 * that is no code (then nothing is followed until the visitor chooses). Returns the code.
 */
export function resume(map: MapId): string | null {
  if (pilot.linkProblem !== null) return null;
  const code = pilot.code ?? rememberedPilotCode();
  if (!code) return null;
  if (!knownGone(code)) {
    follow(code, map);
    return code;
  }
  setPageMap(map);
  if (pilot.code !== code) {
    pilot.code = code;
    resetFeedData();
  }
  pilot.status = 'gone';
  return code;
}

/**
 * The page's link carried `?connection=` with a text that is no code: say so, and follow
 * nothing (the code remembered before stays remembered, shown off, for the visitor to pick).
 */
export function rejectLink(text: string): void {
  suspendFeed();
  pilot.linkProblem = text;
  const remembered = pilot.code ?? rememberedPilotCode();
  if (remembered && pilot.code !== remembered) {
    pilot.code = remembered;
    resetFeedData();
  }
  pilot.status = remembered && knownGone(remembered) ? 'gone' : 'off';
}

/** The notice about a link with no code was read. */
export function dismissLinkProblem(): void {
  pilot.linkProblem = null;
}

function suspendFeed(): void {
  const stop = stopFeed;
  stopFeed = null;
  stop?.();
  cancelRetry();
}

/** Stops following until connect again (the map page closed); the code stays remembered. */
export function suspend(): void {
  suspendFeed();
  setPageMap(null);
  pilot.status = 'off';
}

/**
 * Connects again to the code followed (after 'off', 'gone' or 'limited'): the visitor asked. A
 * gone code that is gone again sets `stillGone`, for the menu to say so.
 */
export function reconnect(map: MapId | null = pageMap): void {
  pilot.retryAt = null;
  const wasGone = pilot.status === 'gone';
  pilot.stillGone = false;
  if (pilot.code) {
    connect(pilot.code, map);
    retryingGone = wasGone;
  }
  else pilot.linkProblem = null;
}

/**
 * Stops following and forgets the code. The where-am-I marker goes if it showed the feed's
 * position (it would show a player nobody follows); one the visitor set stays.
 */
export function disconnect(): void {
  clearAppliedPosition();
  suspend();
  pilot.code = null;
  pilot.linkProblem = null;
  pilot.retryAt = null;
  resetFeedData();
  writeStored(PILOT_CODE_KEY, null);
  markGone(null);
  writeSession(PILOT_MAP_HANDLED_KEY, null);
}

/**
 * The map the page should go to: the publisher's map, when it changed since the page last
 * followed (or declined) a change and it is not `current`. Each change is answered once, so a
 * visitor who then opens another map by hand stays there; the answer is kept in this tab's
 * sessionStorage, so a reload (or another map's address typed in this tab) leaves them there
 * too. A later change by the player moves them again.
 *
 * `always`: the stream overlay, which has no menu to go to the player's map by, goes there
 * whenever it shows another one, a change already answered in this tab included (OBS reloads
 * the address it was given, the overlay's first map: docs/DECISIONS.md "The stream overlay
 * always follows the player's map").
 */
export function takeMapChange(current: MapId, always = false): MapId | null {
  const { lastMap, lastMapAt, code } = pilot;
  if (lastMap === null || lastMapAt === null) return null;
  mapHandledAt = Math.max(mapHandledAt, handledInTab(code));
  if (lastMapAt > mapHandledAt) {
    mapHandledAt = lastMapAt;
    writeSession(PILOT_MAP_HANDLED_KEY, JSON.stringify({ code, at: lastMapAt }));
  } else if (!always) return null;
  return lastMap === current ? null : lastMap;
}

// ---------------------------------------------------------------------------------------------
// The publisher (/pilot)

export interface PilotSent {
  position: PlayerPosition | null;
  positionAt: number | null;
  map: MapId | null;
  mapAt: number | null;
}

export interface PilotPublisherState {
  pairing: Pairing | null;
  /** Pages watching the pairing, as the server last said. */
  watchers: number | null;
  sent: PilotSent;
  /** A request in flight (pairing, unpairing). */
  busy: boolean;
  /** The last failure: an ApiError code (`rate_limited`, `http_429`, `gone`, `network`…), or null. */
  error: string | null;
  /** Its HTTP status (0 offline), for the message shown. */
  errorStatus: number | null;
  /** A 429's rule (`guesses`, `pairings`, null: not said) and when (epoch ms) to try again (null: not said). */
  errorLimit: { limit: PilotRateLimit['limit']; retryAt: number | null } | null;
  /** The server's own words about the failure (a refused message says what is wrong with it), or null. */
  errorMessage: string | null;
  /** An `outside_map` refusal's map: the position was far off it (null: off every map, none sent yet). */
  errorMap: MapId | null;
}

const NOTHING_SENT: PilotSent = { position: null, positionAt: null, map: null, mapAt: null };

export const pilotPublisher = proxy<PilotPublisherState>({
  pairing: null,
  watchers: null,
  sent: { ...NOTHING_SENT },
  busy: false,
  error: null,
  errorStatus: null,
  errorLimit: null,
  errorMessage: null,
  errorMap: null,
});

function parseStoredPairing(text: string | null): Pairing | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<Pairing>;
    const code = typeof value.code === 'string' ? normalizePairingCode(value.code) : null;
    if (!code || typeof value.token !== 'string' || value.token === '') return null;
    const expiresAt = typeof value.expiresAt === 'number' || typeof value.expiresAt === 'string' ? value.expiresAt : 0;
    return { code, token: value.token, expiresAt };
  } catch {
    return null;
  }
}

/**
 * What could not be sent while the server was out of reach (a network error, a 5xx, a 429): the
 * newest map and the newest position, sent as soon as the server answers again (the session's
 * periodic check, or the next message), so a position taken during an outage is not lost under
 * the last one that went through. A map waiting drops a position sent or waiting before it (it
 * belongs to the map the player left).
 */
let waiting: { map: MapId | null; position: PlayerPosition | null } = { map: null, position: null };

function setPairing(pairing: Pairing | null): void {
  pilotPublisher.pairing = pairing;
  pilotPublisher.watchers = null;
  pilotPublisher.sent = { ...NOTHING_SENT };
  waiting = { map: null, position: null };
  writeStored(PILOT_PAIRING_KEY, pairing ? JSON.stringify(pairing) : null);
  writeStored(PILOT_SENT_KEY, null);
}

const timeOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** What was last sent to `code` before a reload, or nothing (another code's, or unreadable). */
function parseStoredSent(text: string | null, code: string): PilotSent {
  if (!text) return { ...NOTHING_SENT };
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (value.code !== code) return { ...NOTHING_SENT };
    const position = pilotPositionSchema.safeParse(value.position);
    const positionAt = timeOrNull(value.positionAt);
    const map = typeof value.map === 'string' && isMapId(value.map) ? value.map : null;
    const mapAt = timeOrNull(value.mapAt);
    return {
      position: position.success && positionAt !== null ? position.data : null,
      positionAt: position.success ? positionAt : null,
      map: map !== null && mapAt !== null ? map : null,
      mapAt: map !== null ? mapAt : null,
    };
  } catch {
    return { ...NOTHING_SENT };
  }
}

/**
 * Keeps what was sent with the pairing, so a reload still shows it under Last sent and can
 * send the map again if the server restarted meanwhile (it keeps positions in memory only).
 */
function rememberSent(code: string, sent: PilotSent): void {
  pilotPublisher.sent = sent;
  writeStored(PILOT_SENT_KEY, JSON.stringify({ code, ...sent }));
}

function fail(error: unknown): void {
  const api = error instanceof ApiError ? error : null;
  pilotPublisher.error = api?.code ?? 'network';
  pilotPublisher.errorStatus = api?.status ?? 0;
  const limited = pilotRateLimit(error);
  pilotPublisher.errorLimit = limited && { limit: limited.limit, retryAt: limited.retryAfterS === null ? null : Date.now() + limited.retryAfterS * 1000 };
  pilotPublisher.errorMessage = api && api.status !== 0 ? api.message : null;
  pilotPublisher.errorMap = api?.code === 'outside_map' ? refusedMap(api.body) : null;
}

function refusedMap(body: unknown): MapId | null {
  const map = (body as { map?: unknown } | null)?.map;
  return typeof map === 'string' && isMapId(map) ? map : null;
}

function clearError(): void {
  pilotPublisher.error = null;
  pilotPublisher.errorStatus = null;
  pilotPublisher.errorLimit = null;
  pilotPublisher.errorMessage = null;
  pilotPublisher.errorMap = null;
}

/** The pairing gone on the server (expired, or unpaired elsewhere): forget it and say so. */
function lostPairing(): void {
  setPairing(null);
  clearError();
  pilotPublisher.error = 'gone';
  pilotPublisher.errorStatus = 404;
}

/** Takes up the pairing this browser made before, if any (then checked by refreshPairing). */
export function loadRememberedPairing(): Pairing | null {
  const pairing = parseStoredPairing(readStored(PILOT_PAIRING_KEY));
  if (pairing && pilotPublisher.pairing?.code !== pairing.code) {
    pilotPublisher.pairing = pairing;
    pilotPublisher.sent = parseStoredSent(readStored(PILOT_SENT_KEY), pairing.code);
    pilotPublisher.watchers = null;
  }
  return pairing;
}

/** Creates a pairing and remembers it (a previous one is replaced). */
export async function pair(): Promise<boolean> {
  pilotPublisher.busy = true;
  clearError();
  try {
    const pairing = await createPairing();
    const code = normalizePairingCode(pairing.code);
    if (!code || !pairing.token) throw new ApiError('/api/be/pilot/pairings', 200, 'bad_pairing', 'The server sent no usable pairing');
    setPairing({ code, token: pairing.token, expiresAt: pairing.expiresAt });
    return true;
  } catch (error) {
    fail(error);
    return false;
  } finally {
    pilotPublisher.busy = false;
  }
}

/** Ends the pairing on the server and forgets it here. */
export async function forgetPairing(): Promise<void> {
  const pairing = pilotPublisher.pairing;
  if (!pairing) return;
  pilotPublisher.busy = true;
  clearError();
  try {
    await unpair(pairing.code, pairing.token);
    setPairing(null);
  } catch (error) {
    fail(error);
  } finally {
    pilotPublisher.busy = false;
  }
}

/** The session check in flight (a second caller, React's double effect in development, shares it). */
let refreshing: { code: string; done: Promise<void> } | null = null;
/** After a 429 on the session check: no check is asked before then (epoch ms). */
let refreshWaitUntil = 0;

/**
 * Reads how many pages watch the pairing; forgets it when the server no longer knows it. A 429
 * is shown (which rule, how long) and no check is asked again until the wait the server gave
 * is over: asking sooner only gets 429 again.
 */
export function refreshPairing(): Promise<void> {
  const pairing = pilotPublisher.pairing;
  if (!pairing || Date.now() < refreshWaitUntil) return Promise.resolve();
  if (refreshing?.code === pairing.code) return refreshing.done;
  const done = checkSession(pairing).finally(() => {
    if (refreshing?.done === done) refreshing = null;
  });
  refreshing = { code: pairing.code, done };
  return done;
}

async function checkSession(pairing: Pairing): Promise<void> {
  try {
    const info = await checkPairing(pairing.code);
    if (pilotPublisher.pairing?.code !== pairing.code) return;
    if (info === null) lostPairing();
    else {
      pilotPublisher.watchers = info.watchers;
      if (info.knowsMap === false) resendLastMap();
      else sendWaiting();
    }
  } catch (error) {
    // Offline for a moment, a 5xx: the next refresh tells. A 429: wait as long as the server asked.
    const limited = pilotRateLimit(error);
    if (!limited || pilotPublisher.pairing?.code !== pairing.code) return;
    refreshWaitUntil = Date.now() + (limited.retryAfterS ?? DEFAULT_LIMITED_S) * 1000;
    fail(error);
  }
}


/** Keeps `message` to send again when the server answers (a refusal of its content is not kept). */
function keepWaiting(message: PilotMessage, error: unknown): void {
  const status = error instanceof ApiError ? error.status : 0;
  if (status !== 0 && status < 500 && status !== 429) return;
  if (message.type === 'map') waiting = { map: message.data.map, position: null };
  else if (message.type === 'position') waiting = { ...waiting, position: { ...message.data } };
}

/** Sends what waited (map first, then position), once the server answers again. */
function sendWaiting(): void {
  const { map, position } = waiting;
  if (map === null && position === null) return;
  const sendPosition = () => (position ? publish({ type: 'position', data: { ...position } }) : Promise.resolve(true));
  if (map !== null) {
    void publish({ type: 'map', data: { map } }).then((sent) => {
      if (sent) void sendPosition();
    });
  } else void sendPosition();
}

/**
 * The server holds no map for the code (it restarted; it keeps them in memory): the last map
 * is sent again, then the last position (a position older than its map is not shown), or pages
 * opening now would stay on the default map without the player. A map or position that waited
 * (sent during the outage) goes instead of the last one sent.
 */
function resendLastMap(): void {
  const map = waiting.map ?? pilotPublisher.sent.map;
  const position = waiting.map !== null ? waiting.position : (waiting.position ?? pilotPublisher.sent.position);
  if (map === null) return;
  void publish({ type: 'map', data: { map } }).then((sent) => {
    if (sent && position) void publish({ type: 'position', data: { ...position } });
  });
}

/** Publishes one message with the pairing's token; false (and `error` set) when it was refused. */
export async function publish(message: PilotMessage): Promise<boolean> {
  const pairing = pilotPublisher.pairing;
  if (!pairing) return false;
  try {
    const answer = await publishPilot(pairing.code, pairing.token, message);
    if (pilotPublisher.pairing?.code !== pairing.code) return false;
    clearError();
    if (typeof answer?.watchers === 'number') pilotPublisher.watchers = answer.watchers;
    const now = Date.now();
    if (message.type === 'position') {
      rememberSent(pairing.code, { ...pilotPublisher.sent, position: { ...message.data }, positionAt: now });
      waiting = { ...waiting, position: null };
    }
    if (message.type === 'map') {
      rememberSent(pairing.code, { ...pilotPublisher.sent, map: message.data.map, mapAt: now });
      // A position waiting from before this map belongs to the map the player left.
      waiting = { map: waiting.map === message.data.map ? null : waiting.map, position: waiting.map === message.data.map ? waiting.position : null };
    }
    if (answer?.knowsMap === false && message.type !== 'map') resendLastMap();
    else sendWaiting();
    return true;
  } catch (error) {
    if (pilotPublisher.pairing?.code !== pairing.code) return false;
    // 404: the pairing expired; 401/403: this token is not (or no longer) the pairing's.
    if (error instanceof ApiError && (error.status === 404 || error.status === 401 || error.status === 403)) {
      waiting = { map: null, position: null };
      lostPairing();
    } else {
      keepWaiting(message, error);
      fail(error);
    }
    return false;
  }
}

export function isMapId(value: string): value is MapId {
  return (MAP_IDS as readonly string[]).includes(value);
}

/** Back to the start (tests). */
export function resetPilot(): void {
  suspend();
  clearTimeout(staleTimer);
  staleTimer = undefined;
  refreshing = null;
  refreshWaitUntil = 0;
  pilot.code = null;
  pilot.linkProblem = null;
  pilot.retryAt = null;
  resetFeedData();
  pilotPublisher.pairing = null;
  pilotPublisher.watchers = null;
  pilotPublisher.sent = { ...NOTHING_SENT };
  pilotPublisher.busy = false;
  waiting = { map: null, position: null };
  clearError();
}
