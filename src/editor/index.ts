/**
 * The editor module (docs/EDITOR.md): undo history, marker commands and live changes, and
 * the defaults a map page uses (the real admin API and live stream). The wiring:
 *
 * ```ts
 * const commands = createPageEditorCommands({ mapId, sink });   // sink: worker + engine
 * bindEditor(commands);                                          // src/state/editor.ts
 * const stopLive = connectLive(commands, mapId, setLive);
 * // leaving: stopLive(); bindEditor(null); commands.dispose();
 * ```
 */
import * as admin from '../api/admin';
import { subscribeMarkerChanges, type LiveState } from '../api/live';
import type { MapId } from '../domain/maps';
import { createEditorCommands, type EditorApi, type EditorCommands, type EditorCommandsOptions } from './commands';

export * from './commands';
export * from './history';
export { applyRemoteChange, changeUid, changeVersion, isEcho, type RemoteChangeDeps } from './live';

/** src/api/admin.ts as the commands' API. */
export const adminApi: EditorApi = {
  addMarker: (marker) => admin.addMarker(marker),
  updateMarker: (marker) => admin.updateMarker(marker),
  deleteMarker: (uid, version) => admin.deleteMarker(uid, version),
  uploadMarkerImage: (args) => admin.uploadMarkerImage(args),
  fetchMarkerHistory: (uid) => admin.fetchMarkerHistory(uid),
};

/** The commands of a map page: the real admin API unless another is given (tests). */
export function createPageEditorCommands(options: Omit<EditorCommandsOptions, 'api'> & { api?: EditorApi }): EditorCommands {
  return createEditorCommands({ ...options, api: options.api ?? adminApi });
}

/**
 * Feeds the map's live marker changes to the commands (echoes ignored, the edited marker kept).
 * `onState` hears the stream's state; after 'reconnecting' → 'connected' the wiring reloads the
 * marker list (changes missed meanwhile are not replayed). Answers the function that stops it.
 */
export function connectLive(commands: Pick<EditorCommands, 'applyRemote' | 'knowsVersion'>, mapId: MapId, onState?: (state: LiveState) => void): () => void {
  return subscribeMarkerChanges(
    mapId,
    (change) => {
      commands.applyRemote(change).catch((error: unknown) => console.warn('raidmap: a live marker change could not be applied', error));
    },
    onState,
    { skip: (uid, version) => commands.knowsVersion(uid, version) },
  );
}
