import { EventEmitter } from 'node:events';
import type { DestinationStream } from 'pino';

export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** A pino destination that keeps every line parsed, so a test can await the line it expects. */
export class CapturedLog implements DestinationStream {
  readonly lines: LogLine[] = [];
  readonly raw: string[] = [];
  private readonly written = new EventEmitter();

  write(chunk: string): void {
    for (const text of chunk.split('\n').filter((t) => t !== '')) {
      this.raw.push(text);
      this.lines.push(JSON.parse(text) as LogLine);
    }
    this.written.emit('line');
  }

  /** The first line matching, once it is written (Fastify logs a request after its response is sent). */
  async waitFor(matches: (line: LogLine) => boolean): Promise<LogLine> {
    for (;;) {
      const found = this.lines.find(matches);
      if (found) return found;
      await new Promise((resolve) => this.written.once('line', resolve));
    }
  }
}
