/**
 * Small pixel measurements on screenshots (decoded with sharp): how varied a picture is,
 * how sharp its edges are, and how much two pictures differ around a point.
 */
import sharp from 'sharp';

export interface Gray {
  width: number;
  height: number;
  /** Luminance 0..255, row-major. */
  data: Float32Array;
}

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

export async function decodeRgba(png: Buffer): Promise<Rgba> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export function toGray(image: Rgba): Gray {
  const out = new Float32Array(image.width * image.height);
  for (let i = 0; i < out.length; i += 1) {
    const o = i * 4;
    out[i] = 0.2126 * image.data[o] + 0.7152 * image.data[o + 1] + 0.0722 * image.data[o + 2];
  }
  return { width: image.width, height: image.height, data: out };
}

export async function decodeGray(png: Buffer): Promise<Gray> {
  return toGray(await decodeRgba(png));
}

/** Standard deviation of the luminance: 0 for a blank (single-colour) picture. */
export function luminanceStdDev(image: Gray): number {
  let sum = 0;
  let sumSq = 0;
  for (const v of image.data) {
    sum += v;
    sumSq += v * v;
  }
  const n = image.data.length;
  const mean = sum / n;
  return Math.sqrt(Math.max(0, sumSq / n - mean * mean));
}

/** Number of distinct RGB colours (quantised to 5 bits a channel). */
export function colourCount(image: Rgba): number {
  const seen = new Set<number>();
  for (let o = 0; o < image.data.length; o += 4) {
    seen.add(((image.data[o] >> 3) << 10) | ((image.data[o + 1] >> 3) << 5) | (image.data[o + 2] >> 3));
  }
  return seen.size;
}

/**
 * Edge sharpness: the given quantile (default 0.999) of the luminance step between
 * neighbouring pixels (horizontal and vertical). A crisp edge steps from one colour to the
 * other within a pixel; the same edge stretched from a low-resolution texture spreads the
 * step over many pixels, so its largest steps are several times smaller.
 */
export function edgeSharpness(image: Gray, quantile = 0.999): number {
  const steps: number[] = [];
  const { width, height, data } = image;
  for (let y = 0; y < height - 1; y += 1) {
    for (let x = 0; x < width - 1; x += 1) {
      const v = data[y * width + x];
      steps.push(Math.abs(data[y * width + x + 1] - v), Math.abs(data[(y + 1) * width + x] - v));
    }
  }
  if (steps.length === 0) return 0;
  steps.sort((a, b) => a - b);
  return steps[Math.min(steps.length - 1, Math.floor(quantile * steps.length))];
}

/** Mean absolute RGB difference of two same-sized pictures over a square around (cx, cy). */
export function meanDiffAround(a: Rgba, b: Rgba, cx: number, cy: number, radius: number): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('pictures differ in size');
  let total = 0;
  let count = 0;
  for (let y = Math.max(0, Math.round(cy - radius)); y <= Math.min(a.height - 1, Math.round(cy + radius)); y += 1) {
    for (let x = Math.max(0, Math.round(cx - radius)); x <= Math.min(a.width - 1, Math.round(cx + radius)); x += 1) {
      const o = (y * a.width + x) * 4;
      total += Math.abs(a.data[o] - b.data[o]) + Math.abs(a.data[o + 1] - b.data[o + 1]) + Math.abs(a.data[o + 2] - b.data[o + 2]);
      count += 3;
    }
  }
  return count === 0 ? 0 : total / count;
}

/** Crops a grey picture. */
export function cropGray(image: Gray, left: number, top: number, width: number, height: number): Gray {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const sx = Math.min(image.width - 1, Math.max(0, left + x));
      const sy = Math.min(image.height - 1, Math.max(0, top + y));
      out[y * width + x] = image.data[sy * image.width + sx];
    }
  }
  return { width, height, data: out };
}

/**
 * Points of strongest large-scale contrast inside `region` (pixel coordinates of the picture):
 * the luminance step summed over a 5×5 neighbourhood, so a long road or coast edge wins over
 * a speck. Returns up to `count` points, strongest first, at least `spacing` px apart.
 */
export function strongestEdges(
  image: Gray,
  region: { left: number; top: number; right: number; bottom: number },
  count: number,
  spacing: number,
): { x: number; y: number; strength: number }[] {
  const { width, height, data } = image;
  const r = 2;
  const scored: { x: number; y: number; strength: number }[] = [];
  const x0 = Math.max(r + 1, Math.floor(region.left));
  const x1 = Math.min(width - r - 2, Math.ceil(region.right));
  const y0 = Math.max(r + 1, Math.floor(region.top));
  const y1 = Math.min(height - r - 2, Math.ceil(region.bottom));
  for (let y = y0; y <= y1; y += 1) {
    for (let x = x0; x <= x1; x += 1) {
      let strength = 0;
      for (let dy = -r; dy <= r; dy += 1) {
        for (let dx = -r; dx <= r; dx += 1) {
          const i = (y + dy) * width + x + dx;
          strength += Math.abs(data[i + 1] - data[i]) + Math.abs(data[i + width] - data[i]);
        }
      }
      if (strength > 0) scored.push({ x, y, strength });
    }
  }
  scored.sort((a, b) => b.strength - a.strength);
  const picked: { x: number; y: number; strength: number }[] = [];
  for (const p of scored) {
    if (picked.length >= count) break;
    if (picked.every((q) => Math.hypot(q.x - p.x, q.y - p.y) >= spacing)) picked.push(p);
  }
  return picked;
}
