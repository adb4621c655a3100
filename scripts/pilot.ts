/**
 * The watcher of the live position feed (`npm run pilot -- [options]`, docs/PILOT-WATCHER.md):
 * pairs with a raidmap server (or reuses a pairing), then publishes the position of each new
 * game screenshot and the map of each raid the game's logs name, until Ctrl+C.
 *
 * Prints `watching <dir>` once the screenshot folder is watched (tools wait for that word).
 * Exit status: 0 when stopped (SIGINT/SIGTERM), 1 when it cannot go on (token refused, server
 * refused to pair), 2 for a command-line mistake.
 *
 * RAIDMAP_PILOT_STATE overrides where the pairing is remembered (`none`: nowhere).
 */
import os from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { PilotApi } from './pilot/api';
import { parseArgs, USAGE, UsageError, type PilotOptions } from './pilot/args';
import { LogFollower } from './pilot/logs';
import { newPairing, obtainPairing, pairingLines, PairingError, refusedTokenText, type PairingDeps } from './pilot/pairing';
import { Publisher } from './pilot/publisher';
import { ScreenshotWatcher } from './pilot/screenshots';
import { forgetPairing, stateFilePath } from './pilot/state';
import type { Pairing } from './pilot/api';

function timestamp(): string {
  return new Date().toTimeString().slice(0, 8);
}

function log(line: string): void {
  process.stdout.write(`[${timestamp()}] ${line}\n`);
}

function stateFile(): string | null {
  const override = process.env.RAIDMAP_PILOT_STATE;
  if (override === 'none') return null;
  if (override) return override;
  return stateFilePath(process.platform, process.env, os.homedir());
}

function isDir(dir: string): boolean {
  try {
    return existsSync(dir) && statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

async function showPairing(server: string, pairing: Pairing): Promise<void> {
  for (const line of await pairingLines(server, pairing.code, true)) process.stdout.write(`${line}\n`);
}

async function main(argv: string[]): Promise<number> {
  let options: PilotOptions;
  try {
    const parsed = parseArgs(argv, { platform: process.platform, env: process.env, homedir: os.homedir(), exists: isDir });
    if (parsed.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    options = parsed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }

  const controller = new AbortController();
  const { signal } = controller;
  let screenshots: ScreenshotWatcher | null = null;
  let logs: LogFollower | null = null;
  let publisher: Publisher | null = null;
  let stopping = false;
  const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  const onSignal = () => {
    if (stopping) process.exit(130); // a second Ctrl+C: do not wait any more
    stopping = true;
    log('stopping');
    controller.abort();
    publisher?.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const closeAll = async () => {
    publisher?.stop();
    await Promise.all([screenshots?.close(), logs?.close()]);
  };

  const file = stateFile();
  const api = new PilotApi({ server: options.server });
  const deps: PairingDeps = { api, stateFile: file, log, signal };
  log(`raidmap server: ${options.server}`);

  let pairing: Pairing | null;
  try {
    pairing = await obtainPairing(deps, options.pairing);
  } catch (error) {
    if (signal.aborted) return 0; // stopped while a request was in flight
    if (!(error instanceof PairingError)) throw error;
    log(`error: ${error.message}`);
    return 1;
  }
  if (pairing === null || signal.aborted) return 0; // stopped while pairing
  await showPairing(options.server, pairing);

  publisher = new Publisher({
    api,
    pairing,
    log,
    rePair: async (rePairSignal) => {
      const fresh = await newPairing({ ...deps, signal: rePairSignal });
      if (fresh !== null) {
        log('paired again: pages must follow the new code');
        await showPairing(options.server, fresh);
      }
      return fresh;
    },
  });
  const sink = publisher;

  // The screenshot watcher first: `watching <dir>` is the first line with that word.
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => (settle = resolve));
  screenshots = new ScreenshotWatcher({
    dir: options.screenshots,
    log,
    deleteAfterRead: options.deleteScreenshots,
    onPosition: (position) => sink.publish({ type: 'position', data: position }),
    onReady: (dir) => {
      log(`watching ${dir}${options.deleteScreenshots ? ' (screenshots are deleted once read)' : ''}`);
      settle();
    },
    onWaiting: () => settle(),
  });
  screenshots.start();
  await Promise.race([settled, stopped]);

  if (options.logs !== null && !signal.aborted) {
    logs = new LogFollower({ dir: options.logs, log, onMap: (map) => sink.publish({ type: 'map', data: { map } }) });
    logs.start();
  }

  let end;
  try {
    end = signal.aborted ? ({ reason: 'stopped' } as const) : await publisher.run();
  } catch (error) {
    await closeAll();
    if (!(error instanceof PairingError)) throw error;
    log(`error: ${error.message}`);
    return 1;
  }
  await closeAll();
  if (end.reason === 'unauthorized') {
    if (file !== null) await forgetPairing(file).catch(() => {});
    log(`error: ${refusedTokenText(publisher.pairing.code, end.status)}`);
    return 1;
  }
  log('stopped');
  return 0;
}

/** Ends with `code` once the output is written (stdout may be an asynchronous pipe), or soon after. */
function exit(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 500).unref();
}

main(process.argv.slice(2)).then(exit, (error: unknown) => {
  process.stderr.write(`pilot: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exit(1);
});
