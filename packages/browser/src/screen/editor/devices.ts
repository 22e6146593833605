import { library } from '../library.js';
import type { MediumRef } from '@galley/core';

/** A frame the preview is shown in: a phone, a banner slot, a sheet of A4. */
export interface Device {
  readonly id: string;
  readonly label: string;
  /** Null: as wide as the screen leaves room for (a desktop browser window). */
  readonly width: number | null;
  readonly height: number;
}

const webDevices: readonly Device[] = [
  { id: 'desktop', label: 'Desktop', width: null, height: 760 },
  { id: 'tablet', label: 'Tablet 768', width: 768, height: 1024 },
  { id: 'phone', label: 'Phone 390', width: 390, height: 844 },
];

/** The frames of a medium: its own canvas, or for the web a desktop, a tablet and a phone. */
export function devicesFor(medium: MediumRef): readonly Device[] {
  const found = library().findMedium(medium);
  if (!found?.canvas) return webDevices;
  const { width, height } = found.canvas;
  return [{ id: found.id, label: found.label, width, height }];
}

/** How much a device's frame is scaled down to fit `room` pixels of width (never up). */
export function scaleToFit(device: Device, room: number): number {
  return device.width === null || room <= 0 ? 1 : Math.min(1, room / device.width);
}
