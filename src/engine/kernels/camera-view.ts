/** The camera's view: a plain value the kernels, the layers and the public API share. */
export interface CameraView {
  /** Map-pixel point at the centre of the canvas. */
  x: number;
  y: number;
  /** CSS pixels per map pixel. */
  zoom: number;
}
