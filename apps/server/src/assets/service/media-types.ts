import { formatOfPath } from '@galley/core';

/** Media type of each format of the media catalog (decisions §4). */
const mediaTypes: Readonly<Record<string, string>> = {
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  txt: 'text/plain',
  xml: 'application/xml',
  webmanifest: 'application/manifest+json',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/vnd.microsoft.icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
};

/** Text the inspection requires to be UTF-8, served with that charset. */
const utf8Types = new Set([
  'application/json',
  'application/manifest+json',
  'text/html',
  'text/css',
  'text/javascript',
  'text/plain',
  'image/svg+xml',
]);

export function mediaTypeOfPath(path: string): string {
  return mediaTypes[formatOfPath(path) ?? ''] ?? 'application/octet-stream';
}

/** The Content-Type a stored file is served with. */
export function contentTypeOf(mediaType: string): string {
  return utf8Types.has(mediaType) ? `${mediaType}; charset=utf-8` : mediaType;
}
