/** One server-sent event as a client sees it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * A real event-stream client over fetch: it reads the answer as it comes, parses the events
 * (and counts the comment lines, the heartbeats), and tells when the server ended the stream.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  comments = 0;
  status = 0;
  ended = false;
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const c = new SseClient();
    const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: c.abort.signal });
    c.status = res.status;
    if (!res.ok || !res.body) {
      c.ended = true;
      await res.text();
      return c;
    }
    c.done = c.read(res.body);
    return c;
  }

  /** The events of one kind. */
  of(event: string): SseEvent[] {
    return this.events.filter((e) => e.event === event);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done.catch(() => undefined);
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          this.parse(block);
        }
      }
    } catch {
      /* aborted by close() */
    } finally {
      this.ended = true;
    }
  }

  private parse(block: string): void {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const i = line.indexOf(':');
      const name = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (name === 'id') id = value;
      else if (name === 'event') event = value;
      else if (name === 'data') data.push(value);
      else continue;
      fields++;
    }
    if (fields && data.length) this.events.push({ id, event, data: data.join('\n') });
  }
}
