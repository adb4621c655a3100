/**
 * The scene drawn on the main thread: the engine's placement is the scene's, so marker calls
 * only tell the scene's labels; frames draw at once.
 */
import type { DrawnShape, Handle } from '../domain/shapes';
import type { LabelMode } from '../domain/settings';
import type { MarkerRow } from '../domain/marker-columns';
import type { ViewportSize } from './kernels/camera';
import type { CameraView } from './kernels/camera-view';
import type { MapScene } from './map-scene';
import type { SceneDriver, SceneHooks } from './scene-driver';
import type { FlaggedSlot, PlayerMarker } from './types';

export class LocalSceneDriver implements SceneDriver {
  constructor(
    private readonly scene: MapScene,
    private readonly hooks: SceneHooks,
  ) {}

  setMarkers(): void {
    this.scene.markersChanged();
  }

  setFilter(): void {}

  upsertMarker(index: number, _row: MarkerRow, _passes: boolean | undefined, labelChanged: boolean): void {
    if (labelChanged) this.scene.forgetLabel(index);
  }

  removeMarker(index: number): void {
    this.scene.forgetLabel(index);
  }

  setLabels(): void {
    this.scene.labelsChanged();
  }

  setLevel(num: number): void {
    this.scene.setLevel(num);
  }

  setMarkerScale(): void {}

  setPlayer(player: PlayerMarker | null, ping: boolean): void {
    this.scene.setPlayer(player, ping);
  }

  setLabelMode(mode: LabelMode): void {
    this.scene.setLabelMode(mode);
  }

  setSelected(index: number): void {
    this.scene.setSelected(index);
  }

  /** The placement (the engine's, shared) knows already; nothing else draws it differently. */
  setKept(): void {}

  setHovered(index: number): void {
    this.scene.setHovered(index);
  }

  setFlags(flags: readonly FlaggedSlot[]): void {
    this.scene.setFlags(flags);
  }

  setShapes(shapes: readonly DrawnShape[], selectedId: string | null, handles: readonly Handle[]): void {
    this.scene.setShapes(shapes, selectedId, handles);
  }

  setPreview(shape: DrawnShape | null): void {
    this.scene.setPreview(shape);
  }

  resize(width: number, height: number): void {
    this.scene.resize(width, height);
  }

  simulateContextLoss(restoreAfterMs: number | null): void {
    this.scene.simulateContextLoss(restoreAfterMs);
  }

  frame(now: number, view: CameraView, viewport: ViewportSize, cameraChanged: boolean, placed: boolean): boolean {
    const drawn = this.scene.frame(now, view, viewport, cameraChanged, placed);
    this.hooks.drawn(drawn.updateMs, drawn.renderMs);
    if (drawn.firstTile) this.hooks.firstTile(performance.now());
    if (drawn.ready) this.hooks.ready();
    return drawn.again;
  }

  dispose(): void {
    this.scene.dispose();
  }
}
