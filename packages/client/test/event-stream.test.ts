import { describe, expect, it } from 'vitest';
import { readEventStream } from '../src/event-stream.js';
import type { ServerSentEvent } from '../src/event-stream.js';

function streamOf(chunks: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function eventsOf(chunks: readonly string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readEventStream(streamOf(chunks))) events.push(event);
  return events;
}

const fixtures: Array<{ name: string; text: string; expected: ServerSentEvent[] }> = [
  {
    name: 'named events with JSON data, a retry and a comment',
    text: 'retry: 2000\n\nevent: lock\ndata: {"lock":null}\n\n: heartbeat\n\nevent: saved\ndata: {"revision":2}\n\n',
    expected: [
      { event: 'lock', data: '{"lock":null}' },
      { event: 'saved', data: '{"revision":2}' },
    ],
  },
  {
    name: 'CRLF and CR line ends, data on several lines, no space after the colon',
    text: 'event:draft\r\ndata:a\r\ndata: b\r\r\ndata\n\n',
    expected: [
      { event: 'draft', data: 'a\nb' },
      { event: 'message', data: '' },
    ],
  },
  {
    name: 'an event without its blank line is not dispatched; text in UTF-8',
    text: 'event: lock\ndata: {"label":"Zoë ✎"}\n\nevent: lock\ndata: cut',
    expected: [{ event: 'lock', data: '{"label":"Zoë ✎"}' }],
  },
];

describe('readEventStream', () => {
  for (const { name, text, expected } of fixtures) {
    it(`reads ${name}, whole or one character at a time`, async () => {
      expect(await eventsOf([text])).toEqual(expected);
      expect(await eventsOf([...text])).toEqual(expected);
    });
  }

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readEventStream(body)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
