// What the loop benchmark's parts share (loop.bench.ts, loop-long-drafts.ts): the service in its
// own process (loop-target.ts) and the requests sent to it, and the generated folders.
// LOOP_BENCH_PROFILE=<dir> starts each service with --cpu-prof into that folder (a profile per
// process and thread, written as it stops).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { writeZip } from '@galley/core';
import type { TargetMessage } from './loop-target.js';

const here = new URL('.', import.meta.url).pathname;
const encoder = new TextEncoder();
const profileDir = process.env['LOOP_BENCH_PROFILE'];

export interface Target {
  url: string;
  token: string;
  child: ChildProcess;
  dataDir: string;
  ask<T>(message: TargetMessage): Promise<T>;
}

/** The whole service with `threads` pool threads, in a process of its own with --expose-gc. */
export async function startTarget(threads: number): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'galley-bench-loop-'));
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = fork(join(here, 'loop-target.ts'), [dataDir, String(threads)], {
    execArgv: [...profile, '--expose-gc', '--import', 'tsx', '--conditions=@galley/source'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child.once('exit', (code, signal) => {
    if (code !== 0) console.error(`the server (pool threads ${threads}) ended: ${code ?? signal}`);
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  const ask = async <T>(message: TargetMessage) => {
    child.send(message);
    return ((await once(child, 'message')) as [T])[0];
  };
  return { url, token, child, dataDir, ask };
}

export async function stopTarget(target: Target): Promise<void> {
  if (target.child.exitCode === null) {
    target.child.send('stop');
    await once(target.child, 'exit');
  }
  rmSync(target.dataDir, { recursive: true, force: true, maxRetries: 10 });
}

export async function api<T>(
  target: Target,
  method: string,
  path: string,
  init: RequestInit & { client?: string } = {},
) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${target.token}`);
  headers.set('x-editor-client', init.client ?? 'bench');
  const res = await fetch(`${target.url}/api/v1${path}`, { ...init, method, headers });
  const body = (await res.json()) as T & { code?: string };
  if (!res.ok)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** A project made from `zip`, and the id of its first page. */
export async function createProject(target: Target, zip: Uint8Array, client = 'bench') {
  const form = new FormData();
  form.set('zip', new Blob([zip]), 'folder.zip');
  const project = await api<{ id: string }>(target, 'POST', '/projects/folder', {
    body: form,
    client,
  });
  const { pages } = await api<{ pages: Array<{ id: string }> }>(
    target,
    'GET',
    `/projects/${project.id}/pages`,
  );
  return { project: project.id, page: pages[0]!.id };
}

export async function lock(target: Target, project: string, client: string) {
  await api(target, 'PUT', `/projects/${project}/lock`, {
    client,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'agent', label: 'bench' }),
  });
}

/**
 * GETs of `path` sent one at a time, `pauseMs` apart, from a thread of their own (loop-probe.mjs)
 * while `work` runs: how long each took (Infinity for one refused or cut). `fresh`: each on a new
 * connection (a kept-alive one may be closed by the server as its timeout fires after a long
 * stall, which would fail the probe instead of timing it).
 */
export async function probeWhile<T>(
  target: Target,
  probe: { path: string; pauseMs: number; fresh: boolean },
  work: () => Promise<T>,
): Promise<{ times: number[]; result: T }> {
  const worker = new Worker(new URL('./loop-probe.mjs', import.meta.url), {
    workerData: {
      url: `${target.url}${probe.path}`,
      headers: { authorization: `Bearer ${target.token}`, 'x-editor-client': 'bench' },
      pauseMs: probe.pauseMs,
      fresh: probe.fresh,
    },
  });
  const answered = once(worker, 'message') as Promise<[number[]]>;
  try {
    const result = await work();
    worker.postMessage('stop');
    const [times] = await answered;
    return { times, result };
  } finally {
    await worker.terminate();
  }
}

/** The 99th percentile (nearest rank) of `times`. */
export function p99(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.99)] ?? NaN;
}

/** A deterministic pseudo-random source, so every run sends the same folder. */
let state = 42;
const next = () => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x80000000;
const words = 'galley page folder canvas banner layout copy print social signage'.split(' ');
const text = (n: number) => Array.from({ length: n }, (_, i) => words[(i * 7 + n) % 10]).join(' ');

/** A page of about `bytes`: sections of headings, paragraphs and lists, every id unique. */
export function page(bytes: number, images: string[] = []): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const image = images.length ? `<img src="${images[i % images.length]}" alt="a">` : '';
    const part = `<section id="s${i}" class="block"><h2 id="h${i}">Part ${i}</h2><p>${text(40)}</p>${image}<ul><li>${text(8)}</li><li>${text(9)}</li></ul></section>\n`;
    parts.push(part);
    size += part.length;
  }
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Bench</title></head><body><main id="main">\n${parts.join('')}</main></body></html>\n`;
}

/** A PNG signature and header, then incompressible bytes (a stored entry, as real images are). */
function png(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = Math.floor(next() * 256);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, 320);
  new DataView(bytes.buffer).setUint32(20, 200);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

/** The ZIP of a project folder of `pages` (file → HTML) and `extra` files. */
export function folderZip(pages: Record<string, string>, extra = new Map<string, Uint8Array>()) {
  const files = Object.keys(pages);
  const project = {
    format: 1,
    title: 'Bench',
    media: { id: 'web', version: 1 },
    pages: files.map((file, i) => ({ file, title: `Page ${i}`, public_url: `/${file}` })),
  };
  const folder = new Map<string, Uint8Array>([
    ['project.json', encoder.encode(JSON.stringify(project))],
  ]);
  for (const [file, html] of Object.entries(pages)) folder.set(file, encoder.encode(html));
  for (const [path, bytes] of extra) folder.set(path, bytes);
  return writeZip(folder);
}

/** About 50 MB: 300 pages of 60 KB that show 900 images of 55 KB. */
export function largeFolder(): Uint8Array {
  const images = new Map<string, Uint8Array>();
  for (let i = 0; i < 900; i++) images.set(`img/i${i}.png`, png(55_000));
  const names = [...images.keys()];
  const pages: Record<string, string> = {};
  for (let i = 0; i < 300; i++) pages[`p${i}.html`] = page(60_000, names.slice(i * 3, i * 3 + 8));
  return folderZip(pages, images);
}
