/** One server-sent event: its `event` name (`message` when none was given) and its `data`. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

const LINE_END = /\r\n|\n|\r/;

/**
 * The events of a `text/event-stream` body, as the HTML standard parses them: lines end with
 * CRLF, LF or CR; `:` starts a comment; a blank line dispatches the event when it has data.
 * `id` and `retry` are read and ignored. Stopping the iteration cancels the body.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let done = false;
  try {
    while (!done) {
      const read = await reader.read();
      done = read.done;
      buffer += done ? decoder.decode() : decoder.decode(read.value, { stream: true });
      for (;;) {
        const end = LINE_END.exec(buffer);
        // A CR at the end may be the first half of a CRLF still on its way.
        if (!end || (!done && end[0] === '\r' && end.index === buffer.length - 1)) break;
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
