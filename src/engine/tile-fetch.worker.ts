/**
 * Tile fetch worker: downloads a tile and decodes it into an ImageBitmap off the main thread,
 * then transfers the bitmap (no copy). Messages: {type: 'load', id, url} and {type: 'cancel', id}.
 */
/// <reference lib="webworker" />
import { handleTileMessage, type TileWorkerRequest, type TileWorkerResponse } from './tile-fetch-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const controllers = new Map<number, AbortController>();

scope.onmessage = (event: MessageEvent<TileWorkerRequest>) => {
  void handleTileMessage(event.data, controllers, fetch, (blob) => createImageBitmap(blob, { premultiplyAlpha: 'premultiply' }), (response: TileWorkerResponse) => {
    if (response.type === 'loaded') scope.postMessage(response, [response.bitmap]);
    else scope.postMessage(response);
  });
};
