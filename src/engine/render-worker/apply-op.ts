/**
 * How the render worker applies the page's ops: to its marker placement (the same calls the
 * page's placement got, so both place alike) and to its scene. No PixiJS: the scene is an
 * interface here (MapScene is one), so a test can replay a page's ops on a placement alone.
 */
import type { LabelMode } from '../../domain/settings';
import type { DrawnShape, Handle } from '../../domain/shapes';
import type { MarkerPlacement } from '../marker-placement';
import type { FlaggedSlot, PlayerMarker } from '../types';
import type { SceneOp } from './protocol';

/** What ops tell the scene besides the placement (map-scene.ts). */
export interface SceneInputs {
  markersChanged(): void;
  forgetLabel(index: number): void;
  labelsChanged(): void;
  setLevel(num: number): void;
  setPlayer(player: PlayerMarker | null, ping: boolean): void;
  setLabelMode(mode: LabelMode): unknown;
  setHovered(index: number): void;
  setSelected(index: number): void;
  setFlags(flags: readonly FlaggedSlot[]): void;
  setShapes(shapes: readonly DrawnShape[], selectedId: string | null, handles: readonly Handle[]): void;
  setPreview(shape: DrawnShape | null): void;
  resize(width: number, height: number): void;
}

/** What an op changed: the placement (place again), the canvas size (the view changed), or only the scene. */
export type OpEffect = 'placement' | 'size' | 'scene';

export function applySceneOp(op: SceneOp, placement: MarkerPlacement, scene: SceneInputs): OpEffect {
  switch (op.op) {
    case 'markers':
      placement.setMarkers(op.columns);
      scene.markersChanged();
      return 'placement';
    case 'filter':
      placement.setFilter(op.indices);
      return 'placement';
    case 'upsert':
      placement.upsert(op.index, op.row, op.passes);
      if (op.labelChanged) scene.forgetLabel(op.index);
      return 'placement';
    case 'remove':
      placement.remove(op.index);
      scene.forgetLabel(op.index);
      return 'placement';
    case 'labels':
      placement.setLabels(op.labels);
      scene.labelsChanged();
      return 'placement';
    case 'level':
      placement.setLevel(op.num);
      scene.setLevel(op.num);
      return 'placement';
    case 'scale':
      placement.setScale(op.scale);
      return 'placement';
    case 'selected':
      placement.setSelected(op.index);
      scene.setSelected(op.index);
      return 'placement';
    case 'kept':
      placement.setKept(op.index);
      return 'placement';
    case 'player':
      scene.setPlayer(op.player, op.ping);
      return 'scene';
    case 'labelMode':
      scene.setLabelMode(op.mode);
      return 'scene';
    case 'hovered':
      scene.setHovered(op.index);
      return 'scene';
    case 'flags':
      scene.setFlags(op.flags);
      return 'scene';
    case 'shapes':
      scene.setShapes(op.shapes, op.selectedId, op.handles);
      return 'scene';
    case 'preview':
      scene.setPreview(op.shape);
      return 'scene';
    case 'resize':
      scene.resize(op.width, op.height);
      return 'size';
  }
}
