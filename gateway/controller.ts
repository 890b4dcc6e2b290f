// The daemon (`run`): owns the components and their start/stop order.
//   start: buffer -> config refresher (cached config, then the server) -> recorder -> uploader
//          -> status writer -> source
//   stop:  the reverse; each stop in its own try/catch, so one failure never skips the others
//          (the recorder's stop writes the open intervals to the buffer before it closes).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GatewayConfig } from './config';
import { ConfigRefresher } from './config-refresher';
import { Credentials } from './credentials';
import { ReadingBuffer } from './buffer';
import { ensureDataDir } from './files';
import { HEARD_REPORT_INTERVAL_MS, HeardReporter } from './heard-reporter';
import type { Logger } from './log';
import { Recorder } from './recorder';
import { createSource, type AdvertisementSource } from './sources/index';
import { BUFFER_FILE, DataDir, STATUS_FILE } from './state';
import { StatusWriter } from './status';
import { Uploader } from './uploader';
import { collectHealth } from './health/collector';
import { createModemSource } from './health/modem';
import { HealthReporter } from './health/reporter';
import { EXIT_FOR_UPDATE, ReleaseDir, releasePublicKey } from './releases';
import { Updater } from './updater';
import { GATEWAY_VERSION } from './version';

interface Component {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class Controller {
  private started: { name: string; component: Component }[] = [];
  private finish: (code: number) => void = () => undefined;
  private readonly finished = new Promise<number>((resolve) => {
    this.finish = resolve;
  });
  private stopping = false;

  constructor(
    private readonly config: GatewayConfig,
    private readonly logger: Logger,
  ) {}

  /** Asks the daemon to stop (signal handler); `run` then stops everything and returns. */
  requestStop(reason: string, code = 0): void {
    if (this.stopping) return;
    this.logger.info({ reason }, 'stopping');
    this.finish(code);
  }

  /** Starts, runs until asked to stop (or done), stops. Resolves with the exit code. */
  async run(): Promise<number> {
    let code: number;
    try {
      await this.start();
      code = await this.finished;
    } catch (e) {
      this.logger.fatal({ err: e }, `could not start: ${(e as Error).message}`);
      code = 1;
    }
    this.stopping = true;
    const stopOk = await this.stop();
    return stopOk ? code : code || 1;
  }

  private async start(): Promise<void> {
    const { config, logger } = this;
    ensureDataDir(config.dataDir);
    const dataDir = new DataDir(config.dataDir);
    const credentials = new Credentials(dataDir, config.server, logger.child({ module: 'credentials' }));
    credentials.reload();
    if (!credentials.paired) throw new Error(`not paired (no ${dataDir.path('pairing.json')}): run \`onreco-gateway pair\` first`);

    const backoff = { baseMs: config.retryBaseMs, maxMs: config.retryMaxMs };
    const buffer = new ReadingBuffer({
      file: dataDir.path(BUFFER_FILE),
      maxRows: config.bufferMaxRows,
      warnRatio: config.bufferWarnRatio,
      logger: logger.child({ module: 'buffer' }),
    });
    let source: AdvertisementSource | null = null;
    const recorder = new Recorder({
      buffer,
      logger: logger.child({ module: 'aggregator' }),
      clock: () => source?.now() ?? Date.now(),
      live: !config.source.startsWith('replay:'),
      closeGraceMs: config.closeGraceSeconds * 1000,
    });
    const refresher = new ConfigRefresher({
      dataDir,
      credentials,
      logger: logger.child({ module: 'config' }),
      refreshMs: config.configRefreshSeconds * 1000,
      requestTimeoutMs: config.requestTimeoutMs,
      backoff,
      onConfig: (storeConfig) => {
        recorder.setConfig(storeConfig);
        updaterRef?.setOffer(storeConfig.release ?? null);
      },
    });
    let updaterRef: Updater | null = null;
    const heardReporter = new HeardReporter({
      credentials,
      logger: logger.child({ module: 'heard' }),
      intervalMs: HEARD_REPORT_INTERVAL_MS,
      requestTimeoutMs: config.requestTimeoutMs,
      isStoreSensor: (address) => recorder.storeSensors().some((sensor) => sensor.serialNo === address),
    });
    const startedAtMs = Date.now();
    // A replayed or simulated gateway has no modem of its own unless one is named (replay:FILE).
    const modem = createModemSource(config.source !== 'bluez' && config.modem === 'modemmanager' ? 'none' : config.modem);
    let uploaderRef: Uploader | null = null;
    const health = new HealthReporter({
      collect: () =>
        collectHealth({
          version: GATEWAY_VERSION,
          startedAtMs,
          buffer,
          dataDir: config.dataDir,
          source: () => source,
          sensorsLastSeen: () => recorder.status().sensors.map((sensor) => sensor.lastSeen),
          heardWindowMs: (recorder.status().samplingIntervalSeconds ?? 60) * 1000 * 2,
          modem,
          now: () => Date.now(),
        }),
      credentials,
      logger: logger.child({ module: 'health' }),
      requestTimeoutMs: config.requestTimeoutMs,
      lastUploadAt: () => {
        const at = uploaderRef?.status().lastSuccessAt;
        return at ? Date.parse(at) : null;
      },
      checkMs: config.healthCheckSeconds * 1000,
      close: () => modem.close(),
    });
    const uploader = new Uploader({
      health,
      buffer,
      credentials,
      logger: logger.child({ module: 'uploader' }),
      batchSize: config.uploadBatchSize,
      delayMs: config.uploadDelayMs,
      backoff,
      retryAfterMaxMs: config.retryAfterMaxSeconds * 1000,
      requestTimeoutMs: config.requestTimeoutMs,
    });
    uploaderRef = uploader;
    const updater = new Updater({
      releases: new ReleaseDir(config.releaseDir ?? path.join(config.dataDir, 'releases')),
      key: existsSync(config.releaseKey) ? releasePublicKey(config.releaseKey) : null,
      runningVersion: GATEWAY_VERSION,
      credentials,
      logger: logger.child({ module: 'updater' }),
      requestTimeoutMs: config.requestTimeoutMs,
      lastUploadAt: () => {
        const at = uploader.status().lastSuccessAt;
        return at ? Date.parse(at) : null;
      },
      restart: (version) => this.requestStop(`switched to release ${version}`, EXIT_FOR_UPDATE),
    });
    updaterRef = updater;
    source = createSource(
      config,
      () => recorder.storeSensors(),
      {
        onAdvertisement: (heard) => {
          recorder.handle(heard);
          heardReporter.note(heard);
        },
        onEnd: () => void this.sourceEnded(recorder, uploader),
        onError: (error) => {
          logger.error({ err: error }, 'advertisement source failed');
          this.requestStop('source failed', 1);
        },
      },
      logger,
    );
    const startedAt = new Date().toISOString();
    const statusWriter = new StatusWriter(
      dataDir.path(STATUS_FILE),
      config.statusIntervalSeconds * 1000,
      () => ({
        pid: process.pid,
        running: true,
        startedAt,
        statusIntervalSeconds: config.statusIntervalSeconds,
        source: { kind: source?.kind, ...source?.status() },
        storeId: credentials.storeId,
        tokenRevoked: credentials.revoked,
        config: refresher.status(),
        recorder: recorder.status(),
        uploader: uploader.status(),
        health: health.status(),
        update: updater.status(),
      }),
      logger.child({ module: 'status' }),
    );

    for (const [name, component] of [
      ['buffer', buffer],
      ['updater', updater],
      ['config', refresher],
      ['aggregator', recorder],
      ['uploader', uploader],
      ['heard', heardReporter],
      ['status', statusWriter],
      ['health', health],
      ['source', source],
    ] as const) {
      await component.start();
      this.started.push({ name, component });
    }
    logger.info({ source: config.source, storeId: credentials.storeId, buffered: buffer.depth }, 'gateway running');
  }

  /** Replay finished: record the last interval, and with --exit-when-drained exit once uploaded. */
  private async sourceEnded(recorder: Recorder, uploader: Uploader): Promise<void> {
    recorder.flush();
    if (!this.config.exitWhenDrained) return;
    this.logger.info('source finished; waiting for the buffer to drain');
    await uploader.whenDrained();
    this.requestStop('drained');
  }

  /** Stops in reverse order; false when any stop failed. */
  private async stop(): Promise<boolean> {
    let ok = true;
    for (const { name, component } of this.started.reverse()) {
      try {
        await component.stop();
      } catch (e) {
        ok = false;
        this.logger.error({ err: e, component: name }, 'stop failed');
      }
    }
    this.started = [];
    return ok;
  }
}
