/**
 * What the map draws, with PixiJS: the tiles per floor, the marker sprites of a placement, the
 * selection ring, the badges of unsaved markers, the labels, the drawn shapes, the player and the render. No input, no camera
 * of its own, no tools: it draws the camera and the state it is given, on the main thread
 * (`LocalSceneDriver`, local-scene.ts) or in the render worker (`render-worker/scene-host.ts`).
 *
 * Stage, bottom to top: world (tiles per floor, in map pixels under the camera transform),
 * selection ring, markers, badges, labels, player, tool overlay (all in screen CSS pixels).
 */
import { Container, Graphics } from 'pixi.js';
import type { MapDefinition } from '../domain/maps';
import type { LabelMode } from '../domain/settings';
import { mapToScreen, type ViewportSize } from './kernels/camera';
import type { CameraView } from './kernels/camera-view';
import { ICON_PRIORITY } from './kernels/thinning';
import type { IconAtlas } from './icon-atlas';
import { clampLabelScale, LabelLayer } from './label-layer';
import { MarkerBadges } from './marker-badges';
import type { MarkerPlacement } from './marker-placement';
import { MarkerSprites } from './marker-sprites';
import { PlayerLayer } from './player-layer';
import { watchContextLoss } from './context-loss';
import { advanceSystemTicker, type EngineApp } from './renderer-host';
import { ShapeLayer } from './shape-layer';
import type { StartedTiles } from './started-tiles';
import type { DrawnShape, Handle } from '../domain/shapes';
import type { FlaggedSlot, PlayerMarker } from './types';

/** What a drawn frame tells its driver. */
export interface SceneFrame {
  /** Another frame is needed (an animation runs, tiles wait for their upload slot). */
  again: boolean;
  /** Update (tiles, labels, shapes, player) and render time of this frame, ms. */
  updateMs: number;
  renderMs: number;
  /** This frame is the first that drew a map tile. */
  firstTile: boolean;
  /** This frame made the map ready: the first view's tiles and the markers are drawn. */
  ready: boolean;
}

export interface MapSceneOptions {
  map: MapDefinition;
  labelScale?: number;
  /** A frame is needed (a tile arrived, a recheck is due, the context came back). */
  invalidate: () => void;
  /** The scene cannot draw any more (its WebGL context was lost for good): why. */
  failed?: (message: string) => void;
}

export class MapScene {
  /** A render group: the camera moves it as one transform, without re-packing its tiles. */
  private readonly world = new Container({ label: 'world', isRenderGroup: true });
  private readonly selectionRing = new Graphics();
  private readonly overlay = new Container({ label: 'tool-overlay' });
  private readonly labels: LabelLayer;
  private readonly player: PlayerLayer;
  private readonly badges = new MarkerBadges();
  private readonly shapeLayer = new ShapeLayer();
  private readonly dpr: number;
  private level: number;
  private hovered = -1;
  private selected = -1;
  private markersSet = false;
  private labelsDirty = true;
  private shapesDirty = true;
  /** Tiles need re-planning: camera, level, size or a tile arrival changed. */
  private tilesDirty = true;
  private lastTileState = { settled: false, drawn: 0, missing: 0, waiting: 0, recheckInMs: 0 };
  private recheckTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the recheck timer fires (performance.now() ms). */
  private recheckAt = 0;
  private ready_ = false;
  private firstTileDrawn = false;
  private disposed = false;
  /** The WebGL context is lost: frames wait for it (context-loss.ts). */
  private contextLost = false;
  private readonly unwatchContext: () => void;

  constructor(
    private readonly app: EngineApp,
    private readonly atlas: IconAtlas,
    private readonly placement: MarkerPlacement,
    private readonly sprites: MarkerSprites,
    private readonly tiles: StartedTiles,
    private readonly options: MapSceneOptions,
  ) {
    this.dpr = app.renderer.resolution;
    this.level = options.map.defaultLevel;
    this.labels = new LabelLayer(this.dpr, undefined, options.labelScale);
    this.player = new PlayerLayer(clampLabelScale(options.labelScale ?? 1));
    tiles.layer.setLevel(this.level);
    this.world.addChild(tiles.layer.container);
    this.selectionRing.circle(0, 0, 1).stroke({ color: 0xffd54a, width: 0.14 });
    this.selectionRing.visible = false;
    this.overlay.addChild(this.shapeLayer.container);
    app.stage.addChild(this.world, this.selectionRing, sprites.container, this.badges.container, this.labels.container, this.player.container, this.overlay);
    app.stage.eventMode = 'none';
    tiles.layer.attach({
      onTile: () => {
        this.tilesDirty = true;
        options.invalidate();
      },
      // Uploading when a tile is admitted (not at its first draw) puts the cost under the upload budget.
      upload: (texture) => app.renderer.texture.initSource(texture.source),
    });
    this.unwatchContext = watchContextLoss(app.renderer.canvas as unknown as EventTarget, {
      lost: () => {
        this.contextLost = true;
      },
      // PixiJS has re-created its GPU side; everything is drawn again from what the scene holds.
      restored: () => {
        this.contextLost = false;
        this.tilesDirty = this.labelsDirty = this.shapesDirty = true;
        options.invalidate();
      },
      gone: (message) => options.failed?.(message),
    });
  }

  /**
   * Loses the WebGL context as a GPU reset would, and gives it back after `restoreAfterMs` (never
   * for null): for tests and support (automation's `loseContext`). False without WebGL.
   */
  simulateContextLoss(restoreAfterMs: number | null): boolean {
    const gl = (this.app.renderer as { gl?: WebGLRenderingContext }).gl;
    const extension = gl?.getExtension('WEBGL_lose_context');
    if (!extension || gl?.isContextLost()) return false;
    extension.loseContext();
    if (restoreAfterMs !== null) setTimeout(() => {
      if (!this.disposed && gl?.isContextLost()) extension.restoreContext();
    }, restoreAfterMs);
    return true;
  }

  get ready(): boolean {
    return this.ready_;
  }

  /** A new marker set: the labels start over, and the map may become ready. */
  markersChanged(): void {
    this.markersSet = true;
    this.labels.reset();
    this.labelsDirty = true;
  }

  /** One marker's label text changed or its slot emptied. */
  forgetLabel(index: number): void {
    this.labels.forget(index);
  }

  /** Every label text changed (a language change). */
  labelsChanged(): void {
    this.labels.reset();
    this.labelsDirty = true;
  }

  setLevel(num: number): void {
    this.level = num;
    this.tiles.layer.setLevel(num);
    this.tilesDirty = true;
  }

  setPlayer(player: PlayerMarker | null, ping: boolean): void {
    this.player.set(player, ping, performance.now());
  }

  /** False when the mode was already set. */
  setLabelMode(mode: LabelMode): boolean {
    if (!this.labels.setMode(mode)) return false;
    this.labelsDirty = true;
    return true;
  }

  setHovered(index: number): void {
    this.hovered = index;
    this.labelsDirty = true;
  }

  setSelected(index: number): void {
    this.selected = index;
    this.labelsDirty = true;
  }

  /** The badges of markers with unsaved changes (placed each frame; there are few). */
  setFlags(flags: readonly FlaggedSlot[]): void {
    this.badges.set(flags);
  }

  /** The drawn shapes (guides first), the selected one and its edit handles. */
  setShapes(shapes: readonly DrawnShape[], selectedId: string | null, handles: readonly Handle[]): void {
    this.shapeLayer.setShapes(shapes);
    this.shapeLayer.setSelected(selectedId);
    this.shapeLayer.setHandles(handles, -1);
    this.shapesDirty = true;
  }

  setPreview(shape: DrawnShape | null): void {
    this.shapeLayer.setPreview(shape);
    this.shapesDirty = true;
  }

  /** The drawing buffer's CSS size. */
  resize(width: number, height: number): void {
    if (width !== this.app.screen.width || height !== this.app.screen.height) this.app.renderer.resize(width, height);
    this.tilesDirty = true;
  }

  /**
   * Draws `view`. `cameraChanged`: the view moved since the last frame; `placed`: the placement
   * was updated since (labels follow it).
   */
  frame(now: number, view: CameraView, viewport: ViewportSize, cameraChanged: boolean, placed: boolean): SceneFrame {
    if (this.contextLost) {
      // Nothing can be drawn; the restore draws the view of its time with everything dirty.
      return { again: false, updateMs: 0, renderMs: 0, firstTile: false, ready: false };
    }
    const t0 = performance.now();
    this.world.scale.set(view.zoom);
    this.world.position.set(viewport.width / 2 - view.x * view.zoom, viewport.height / 2 - view.y * view.zoom);
    if (cameraChanged || this.tilesDirty) {
      this.tilesDirty = false;
      this.lastTileState = this.tiles.layer.update(view, viewport, this.dpr, now);
      // Tiles waiting for an upload slot need the next frame too.
      if (this.lastTileState.waiting > 0) this.tilesDirty = true;
    }
    const tileState = this.lastTileState;
    if (tileState.recheckInMs > 0) {
      // One timer, moved earlier when a sooner recheck is needed (a level settling while a
      // stand-in tile waits a minute for its next request).
      const at = t0 + tileState.recheckInMs;
      if (this.recheckTimer !== null && at < this.recheckAt) {
        clearTimeout(this.recheckTimer);
        this.recheckTimer = null;
      }
      if (this.recheckTimer === null) {
        this.recheckAt = at;
        this.recheckTimer = setTimeout(() => {
          this.recheckTimer = null;
          this.tilesDirty = true;
          this.options.invalidate();
        }, tileState.recheckInMs);
      }
    }
    if (cameraChanged || placed) this.labelsDirty = true;
    const screen = (x: number, y: number) => mapToScreen(view, viewport, x, y);
    let again = this.updateLabels(viewport);
    if (cameraChanged || this.shapesDirty) {
      this.shapesDirty = false;
      this.shapeLayer.update(screen, view.zoom);
    }
    this.placeSelectionRing(screen);
    this.badges.update(screen, this.placement);
    if (this.player.update(screen, now)) again = true;
    // PixiJS's scheduled GC runs in the frames the engine draws, not in a frame loop of its own.
    advanceSystemTicker(now);
    const t1 = performance.now();
    this.app.renderer.render(this.app.stage);
    const t2 = performance.now();
    const firstTile = !this.firstTileDrawn && tileState.drawn > 0;
    if (firstTile) this.firstTileDrawn = true;
    let ready = false;
    if (!this.ready_ && this.markersSet && tileState.settled) {
      this.ready_ = ready = true;
      this.tiles.layer.endStartup();
      this.tiles.releaseEarly();
    }
    return { again: again || tileState.waiting > 0, updateMs: t1 - t0, renderMs: t2 - t1, firstTile, ready };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unwatchContext();
    if (this.recheckTimer !== null) clearTimeout(this.recheckTimer);
    this.shapeLayer.dispose();
    this.badges.dispose();
    // The renderer goes first, so no texture is destroyed while still bound for drawing.
    this.app.destroy({ removeView: true }, { children: true, texture: false });
    this.tiles.layer.dispose();
    this.tiles.releaseEarly();
    this.tiles.fetcher?.dispose();
    this.sprites.dispose();
    this.labels.dispose();
    this.player.dispose();
    this.atlas.destroy();
  }

  /** True when labels need another frame (new texts wait for the next frame's budget). */
  private updateLabels(viewport: ViewportSize): boolean {
    const markers = this.placement;
    const cols = markers.markers;
    if (!this.labelsDirty || !cols) return false;
    this.labelsDirty = false;
    const again = this.labels.update(
      {
        drawn: markers.drawn,
        drawnCount: markers.drawnCount,
        layoutX: markers.layoutX,
        layoutY: markers.layoutY,
        offsetX: markers.offsetX,
        offsetY: markers.offsetY,
        inView: (k) => markers.inView(k),
        iconCss: markers.iconCss,
        viewportWidth: viewport.width,
        labels: cols.labels,
        alwaysLabel: cols.alwaysLabel,
        priority: (i) => (cols.level[i] === this.level ? 0 : 8) + (ICON_PRIORITY[cols.icon[i]] ?? 7),
        alpha: (i) => markers.alphaOf(i),
      },
      this.hovered,
      this.selected,
    );
    if (again) this.labelsDirty = true;
    return again;
  }

  private placeSelectionRing(screen: (x: number, y: number) => { x: number; y: number }): void {
    const sel = this.selected;
    const cols = this.placement.markers;
    if (sel < 0 || !cols || !this.placement.isDrawn(sel)) {
      this.selectionRing.visible = false;
      return;
    }
    const s = screen(cols.x[sel], cols.y[sel]);
    this.selectionRing.visible = true;
    this.selectionRing.position.set(s.x, s.y);
    this.selectionRing.scale.set(this.placement.iconCss * 0.72);
  }
}
