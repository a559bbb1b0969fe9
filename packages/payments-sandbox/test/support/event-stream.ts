/** One event as a browser's EventSource would see it. */
export interface StreamEvent {
  id?: string;
  data?: string;
  comment?: string;
}

/**
 * Reads a server-sent event stream as it arrives, so that a test waits for the event it means (`waitUntil`), never for a
 * while. `waitUntil` fails when the stream ends first; the test's timeout bounds the rest.
 */
export class EventStreamReader {
  readonly events: StreamEvent[] = [];
  ended = false;
  private buffer = '';
  private readonly waiting = new Set<() => void>();
  private readonly controller = new AbortController();

  private constructor(readonly response: Response) {}

  static async open(url: string, headers: Record<string, string>): Promise<EventStreamReader> {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    const reader = new EventStreamReader(response);
    reader.controller.signal.addEventListener('abort', () => controller.abort());
    void reader.pump();
    return reader;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          const event: StreamEvent = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) event.comment = line.slice(1).trim();
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('data: ')) event.data = line.slice(6);
          }
          this.events.push(event);
        }
        for (const check of this.waiting) check();
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    for (const check of this.waiting) check();
  }

  /** The `data:` of the events so far, parsed. */
  data<T = { id: number; kind: string; ref?: string }>(): T[] {
    return this.events.filter((e) => e.data !== undefined).map((e) => JSON.parse(e.data!) as T);
  }

  waitUntil(found: (reader: EventStreamReader) => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (found(this)) (this.waiting.delete(check), resolve());
        else if (this.ended) (this.waiting.delete(check), reject(new Error(`the stream ended without ${what}; it sent ${JSON.stringify(this.events.slice(-10))}`)));
      };
      this.waiting.add(check);
      check();
    });
  }

  close(): void {
    this.controller.abort();
  }
}
