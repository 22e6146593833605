import type { Medium, MediumRef } from './schema.js';

/** The formats a web site may hold, by what their content is. */
const webFormatsByContent = {
  text: ['html', 'css', 'js', 'mjs', 'json', 'txt', 'xml', 'webmanifest'],
  image: ['png', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'ico'],
  font: ['woff', 'woff2', 'ttf', 'otf'],
  audioVideo: ['mp4', 'webm', 'mp3', 'ogg'],
  document: ['pdf'],
} as const;

type WebFormat = (typeof webFormatsByContent)[keyof typeof webFormatsByContent][number];

export const webFormats: readonly WebFormat[] = Object.values(webFormatsByContent).flat();

/** Formats whose content is text (UTF-8): decoded, parsed or validated whole (SVG too). */
export const textFormats: ReadonlySet<string> = new Set([...webFormatsByContent.text, 'svg']);

/** Formats whose pixel size the checks read (decisions §4 bounds apply to each). */
export const imageFormats: ReadonlySet<string> = new Set(webFormatsByContent.image);

export const canvasFormats = ['html', 'css', 'png', 'jpeg', 'gif', 'webp', 'svg', 'woff2'] as const;

const canvasMedium = (
  id: string,
  label: string,
  type: Medium['type'],
  width: number,
  height: number,
): Medium => ({
  id,
  version: 1,
  label,
  type,
  canvas: { width, height },
  formats: [...canvasFormats],
});

/** The media catalog (decisions §4), version 1 of each medium. */
export const mediaCatalog: readonly Medium[] = [
  { id: 'web', version: 1, label: 'Web site', type: 'site', formats: [...webFormats] },
  canvasMedium('banner', 'Banner 300×250', 'display', 300, 250),
  canvasMedium('leaderboard', 'Leaderboard 728×90', 'display', 728, 90),
  canvasMedium('signage', 'Signage 1920×1080', 'display', 1920, 1080),
  canvasMedium('social', 'Social 1080×1080', 'display', 1080, 1080),
  canvasMedium('print-a4', 'Print A4 2480×3508', 'print', 2480, 3508),
];

export function findMedium(ref: MediumRef): Medium | undefined {
  return mediaCatalog.find((m) => m.id === ref.id && m.version === ref.version);
}

/** File extension → format name used in `formats` (jpg and jpeg are one format). */
export function formatOfPath(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  const ext = path.slice(dot + 1).toLowerCase();
  return ext === 'jpg' ? 'jpeg' : ext === 'htm' ? 'html' : ext;
}
