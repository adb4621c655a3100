/** The checks of createMapEngine's options, for both ways of drawing (no PixiJS). */
import type { EngineOptions } from './types';

export function checkOptions(options: EngineOptions): void {
  if (!options || typeof options !== 'object') throw new TypeError('createMapEngine: options are required');
  if (!(options.container instanceof HTMLElement)) throw new TypeError('createMapEngine: container must be an HTMLElement');
  if (!options.map?.id || !(options.map.size?.width > 0) || !(options.map.size?.height > 0)) {
    throw new TypeError('createMapEngine: map must be a MapDefinition with a positive size');
  }
  const m = options.manifest;
  if (!m || m.map !== options.map.id) {
    throw new TypeError(`createMapEngine: manifest is for map "${m?.map}", not "${options.map.id}"`);
  }
  if (!Array.isArray(m.layers) || !(m.maxZ >= m.minZ) || !m.version) {
    throw new TypeError('createMapEngine: manifest needs layers, a version and minZ ≤ maxZ');
  }
  if (typeof options.iconUrl !== 'function') throw new TypeError('createMapEngine: iconUrl must be a function');
}
