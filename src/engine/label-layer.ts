/**
 * Marker labels. In the default `auto` mode: always for `alwaysLabel` markers (extractions)
 * of the level shown (kernels/label-choice.ts), and for the hovered and the selected marker (`all`: every drawn marker; `hover`: only the
 * hovered and selected one); decluttered so they never pile up (higher-priority labels win). Text
 * objects are BitmapText from one installed font, cached per marker, never made per frame; new
 * ones are made within a time budget per frame. Layout and declutter are in screen space; the
 * texts sit in the markers' zoomed-map space under a container that carries the (rounded)
 * layout offset, so a pan moves one container and only labels pushed in at an edge move.
 */
import { BitmapFont, BitmapText, Cache, Container, TextStyle } from 'pixi.js';
import type { LabelMode } from '../domain/settings';
import { declutter, type LabelCandidate } from './kernels/declutter';
import { wantsLabel } from './kernels/label-choice';
import { FrameBudget } from './kernels/frame-budget';
import { mapLabelText, MAX_LABEL_CHARS } from './kernels/graphemes';

const FONT_SIZE = 12;
const FONT_NAME = 'raidmap-label';
/** Estimated width of a character and height of a label, per pixel of font size. */
const CHAR_WIDTH_PER_SIZE = 0.58;
const LABEL_PADDING = 4;
/** Bounds of the label scale (EngineOptions.labelScale). */
const MIN_LABEL_SCALE = 0.5;
const MAX_LABEL_SCALE = 4;
const MAX_CACHED = 400;

/** A label scale within its bounds (1 for anything not a finite number). */
export function clampLabelScale(scale: number): number {
  return Number.isFinite(scale) ? Math.max(MIN_LABEL_SCALE, Math.min(MAX_LABEL_SCALE, scale)) : 1;
}
/**
 * At most this many new text objects per update; the rest appear in the next frames. Most of a
 * new text's cost comes in the render that follows (glyph layout, draw data, and a rebuild of
 * the labels' draw list), which the time budget below cannot see: the count bounds it.
 */
export const NEW_LABELS_PER_FRAME = 8;
/**
 * Time (ms) an update may spend making new text objects (each lays out its text, and adds
 * glyphs to the font the first time they are used); at least one is made per update.
 */
export const NEW_LABELS_BUDGET_MS = 1.5;

export interface LabelSource {
  /** Placed markers and their layout positions (screen = layout + offset). */
  drawn: Uint32Array;
  drawnCount: number;
  layoutX: Float32Array;
  layoutY: Float32Array;
  offsetX: number;
  offsetY: number;
  /** Placed marker k is inside the view (only those get labels). */
  inView(k: number): boolean;
  iconCss: number;
  /** Viewport width (CSS px): labels are shifted to stay inside it. */
  viewportWidth: number;
  labels: readonly string[];
  alwaysLabel: Uint8Array;
  /** Priority of a marker's label (lower first). */
  priority(index: number): number;
  alpha(index: number): number;
}

const fontUsers = new Map<string, number>();

function acquireFont(resolution: number, fontSize: number): string {
  const name = fontSize === FONT_SIZE ? `${FONT_NAME}@${resolution}` : `${FONT_NAME}-${fontSize}@${resolution}`;
  if (!Cache.has(`${name}-bitmap`)) {
    BitmapFont.install({
      name,
      resolution,
      // No glyphs drawn up front: PixiJS draws each on the first label that needs it (a first
      // view's labels use a few dozen letters; drawing the 65 of A–Z, a–z, 0–9 with their
      // stroke was 24 ms of a first second). Kerning pairs cost O(chars²) to measure.
      chars: ' ',
      skipKerning: true,
      style: {
        fontFamily: 'system-ui, "Segoe UI", Roboto, Arial, sans-serif',
        fontSize,
        fontWeight: '600',
        fill: 0xffffff,
        stroke: { color: 0x101418, width: Math.max(3, Math.round(fontSize / 4)), join: 'round' },
      },
    });
  }
  fontUsers.set(name, (fontUsers.get(name) ?? 0) + 1);
  return name;
}

function releaseFont(name: string): void {
  const users = (fontUsers.get(name) ?? 1) - 1;
  fontUsers.set(name, users);
  if (users <= 0) {
    fontUsers.delete(name);
    BitmapFont.uninstall(name);
  }
}

export class LabelLayer {
  /** Its own render group: adding or hiding a label rebuilds only this group's draw list. */
  readonly container = new Container({ label: 'labels', isRenderGroup: true });
  private readonly fontName: string;
  /** One style object shared by every text (a style per text costs a TextStyle each). */
  private readonly style: TextStyle;
  private readonly texts = new Map<number, BitmapText>();
  /** Measured width of each cached text (reading BitmapText.width lays it out). */
  private readonly widths = new Map<number, number>();
  private shown = new Set<number>();
  private mode: LabelMode = 'auto';
  /** Labels placed by the last update. */
  placed = 0;
  private readonly charWidthEstimate: number;
  private readonly labelHeight: number;

  /** New texts per update: within NEW_LABELS_BUDGET_MS, at most NEW_LABELS_PER_FRAME. */
  private readonly newTexts: FrameBudget;

  /** `scale`: the label size, 1 = normal (the stream overlay draws them larger). */
  constructor(resolution: number, now: () => number = () => performance.now(), scale = 1) {
    const safeScale = clampLabelScale(scale);
    const fontSize = Math.round(FONT_SIZE * safeScale);
    this.charWidthEstimate = fontSize * CHAR_WIDTH_PER_SIZE;
    this.labelHeight = fontSize + LABEL_PADDING;
    this.fontName = acquireFont(Math.max(1, Math.min(3, Math.round(resolution * 2) / 2)), fontSize);
    this.style = new TextStyle({ fontFamily: this.fontName, fontSize });
    this.newTexts = new FrameBudget(NEW_LABELS_BUDGET_MS, now, NEW_LABELS_PER_FRAME);
  }

  /** Changes which labels show; false when it was already so. */
  setMode(mode: LabelMode): boolean {
    if (mode === this.mode) return false;
    this.mode = mode;
    return true;
  }

  /**
   * Places the labels; returns true when another update is due next frame: a label first
   * measured wider than its estimate, or more new labels were due than one frame makes.
   */
  update(source: LabelSource, hovered: number, selected: number): boolean {
    let underestimated = false;
    const candidates: LabelCandidate[] = [];
    const layoutXOf = new Map<number, number>();
    const belowIcon = source.iconCss / 2 + 1;
    // Texts sit at whole layout pixels under a container at the rounded offset: whole screen pixels.
    const ox = Math.round(source.offsetX);
    const oy = Math.round(source.offsetY);
    this.container.position.set(ox, oy);
    for (let k = 0; k < source.drawnCount; k++) {
      const i = source.drawn[k];
      if (!wantsLabel(this.mode, i === hovered || i === selected, source.alwaysLabel[i] === 1, source.alpha, i)) continue;
      const text = source.labels[i];
      if (!text || !source.inView(k)) continue;
      const width = this.widths.get(i) ?? Math.min(text.length, MAX_LABEL_CHARS) * this.charWidthEstimate + 6;
      const y = Math.round(source.layoutY[k] + belowIcon) + oy;
      layoutXOf.set(i, source.layoutX[k]);
      // Centred under the icon, shifted (not cut) at the viewport's left and right edges.
      const minX = Math.max(2, Math.min(source.viewportWidth - width - 2, source.layoutX[k] + source.offsetX - width / 2));
      candidates.push({
        id: i,
        priority: i === hovered ? -2 : i === selected ? -1 : source.priority(i),
        minX,
        minY: y,
        maxX: minX + width,
        maxY: y + this.labelHeight,
      });
    }
    const kept = new Set(declutter(candidates));
    for (const i of this.shown) {
      if (kept.has(i)) continue;
      const t = this.texts.get(i);
      if (t) t.visible = false;
    }
    this.newTexts.start();
    for (const c of candidates) {
      if (!kept.has(c.id)) continue;
      const measured = this.widths.has(c.id);
      if (!measured && !this.newTexts.take()) {
        kept.delete(c.id);
        underestimated = true;
        continue;
      }
      const t = this.textFor(c.id, source.labels[c.id]);
      if (!measured && this.widths.get(c.id)! > c.maxX - c.minX) underestimated = true;
      t.visible = true;
      t.alpha = c.id === hovered || c.id === selected ? 1 : source.alpha(c.id);
      const width = this.widths.get(c.id)!;
      const centred = Math.round(layoutXOf.get(c.id)! - width / 2);
      // Left and right edges push the label in; elsewhere it keeps its layout position while the map pans.
      const left = Math.max(2 - ox, Math.min(source.viewportWidth - width - 2 - ox, centred));
      t.position.set(Math.round(left), c.minY - oy);
    }
    this.shown = kept;
    this.placed = kept.size;
    this.trim();
    return underestimated;
  }

  /**
   * One marker's label changed or the marker is gone (an edit): drops its cached text and
   * width, so the next update measures it again. Other labels keep theirs.
   */
  forget(index: number): void {
    const t = this.texts.get(index);
    if (t) {
      t.destroy();
      this.texts.delete(index);
    }
    this.widths.delete(index);
    if (this.shown.delete(index)) this.placed = this.shown.size;
  }

  /** Labels changed (language): drop cached texts. */
  reset(): void {
    for (const t of this.texts.values()) t.destroy();
    this.texts.clear();
    this.widths.clear();
    this.shown.clear();
  }

  dispose(): void {
    this.reset();
    this.container.destroy({ children: true });
    this.style.destroy();
    releaseFont(this.fontName);
  }

  private textFor(index: number, whole: string): BitmapText {
    const label = mapLabelText(whole);
    let t = this.texts.get(index);
    if (t && t.text !== label) {
      t.text = label;
      this.widths.set(index, t.width);
    }
    if (!t) {
      t = new BitmapText({ text: label, style: this.style });
      this.texts.set(index, t);
      this.widths.set(index, t.width);
      this.container.addChild(t);
    }
    return t;
  }

  private trim(): void {
    if (this.texts.size <= MAX_CACHED) return;
    for (const [i, t] of this.texts) {
      if (this.texts.size <= MAX_CACHED / 2) break;
      if (this.shown.has(i)) continue;
      t.destroy();
      this.texts.delete(i);
      this.widths.delete(i);
    }
  }
}
