// Plays a capture file as fast as possible. Each advertisement's own `ts` is its time, so the
// aggregation runs on the capture's clock. `.gz` files are read through gunzip.
import type { Interface } from 'node:readline';
import type { Logger } from '../log';
import { CaptureLineError, openCaptureLines, parseCaptureLine } from './capture';
import type { AdvertisementSource, SourceHandlers } from './types';

export class ReplaySource implements AdvertisementSource {
  readonly kind = 'replay';
  readonly live = false;
  private position = Number.NEGATIVE_INFINITY;
  private lines = 0;
  private advertisements = 0;
  private badLines = 0;
  private finished = false;
  private reader: Interface | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly handlers: SourceHandlers,
    private readonly logger: Logger,
  ) {}

  now(): number {
    return this.position;
  }

  async start(): Promise<void> {
    // Fails start() when the file cannot be opened, not later in the loop.
    this.reader = await openCaptureLines(this.file);
    this.loop = this.play(this.reader);
  }

  async stop(): Promise<void> {
    const reader = this.reader;
    this.reader = null;
    reader?.close();
    await this.loop;
  }

  status(): Record<string, unknown> {
    return {
      file: this.file,
      lines: this.lines,
      advertisements: this.advertisements,
      badLines: this.badLines,
      position: Number.isFinite(this.position) ? new Date(this.position).toISOString() : null,
      finished: this.finished,
    };
  }

  private async play(reader: Interface): Promise<void> {
    try {
      for await (const line of reader) {
        if (this.reader !== reader) return; // stopped
        this.lines += 1;
        if (!line.trim()) continue;
        let heard;
        try {
          heard = parseCaptureLine(line);
        } catch (e) {
          if (!(e instanceof CaptureLineError)) throw e;
          this.badLines += 1;
          this.logger.warn({ line: this.lines, reason: e.message }, 'skipping an unreadable capture line');
          continue;
        }
        if (heard.ts > this.position) this.position = heard.ts;
        this.advertisements += 1;
        this.handlers.onAdvertisement(heard);
      }
    } catch (e) {
      if (this.reader !== reader) return;
      this.handlers.onError?.(new Error(`cannot read the capture ${this.file}: ${(e as Error).message}`));
      return;
    }
    if (this.reader !== reader) return;
    this.finished = true;
    this.logger.info({ advertisements: this.advertisements, badLines: this.badLines }, 'replay finished');
    this.handlers.onEnd?.();
  }
}
