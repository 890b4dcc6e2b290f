// Takes the release the console offers (GET /config's gateway_release, decision 291): downloads
// it, checks size, sha256 and the ed25519 signature with the package's public key BEFORE
// unpacking anything, unpacks it into its own directory, switches `current`, and asks the
// daemon to exit with EXIT_FOR_UPDATE so the launcher starts the new version. It also marks the
// running version healthy at its first successful upload and reports the versions the launcher
// rolled back from.
import type { KeyObject } from 'node:crypto';
import { ApiClient, describeFailure } from './api-client';
import { sleep } from './backoff';
import type { Credentials } from './credentials';
import type { Logger } from './log';
import type { ReleaseOffer } from './protocol';
import { checkBundle, type ReleaseDir } from './releases';

export interface UpdaterOptions {
  releases: ReleaseDir;
  /** The release public key; null when the box has none (updates off, said once). */
  key: KeyObject | null;
  runningVersion: string;
  credentials: Credentials;
  logger: Logger;
  requestTimeoutMs: number;
  /** When the uploader last succeeded (ms), or null. */
  lastUploadAt: () => number | null;
  /** Ends the daemon with EXIT_FOR_UPDATE (the launcher starts the new version). */
  restart: (version: string) => void;
  retryMs?: number;
  pollMs?: number;
}

export class Updater {
  private stopController = new AbortController();
  private offer: ReleaseOffer | null = null;
  private busy = false;
  private loops: Promise<void>[] = [];
  private readonly startedAt = Date.now();

  constructor(private readonly options: UpdaterOptions) {}

  async start(): Promise<void> {
    this.stopController = new AbortController();
    if (!this.options.key) this.options.logger.warn('no release public key: updates from the console are off');
    this.loops = [this.watchHealth(), this.reportFailures()];
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** The console's offer from the latest config (null: no change). */
  setOffer(offer: ReleaseOffer | null): void {
    this.offer = offer;
    if (offer && !this.busy) void this.take(offer);
  }

  status(): { runningVersion: string; offered: string | null; pending: string | null; failed: string[] } {
    const state = this.options.releases.readState();
    return { runningVersion: this.options.runningVersion, offered: this.offer?.version ?? null, pending: state.pending?.version ?? null, failed: state.failures.map((f) => f.version) };
  }

  private async take(offer: ReleaseOffer): Promise<void> {
    const { releases, logger, key } = this.options;
    if (!key || offer.version === this.options.runningVersion || this.stopController.signal.aborted) return;
    const state = releases.readState();
    if (state.pending) return; // this version is not confirmed yet: no second switch on top of it
    if (state.failures.some((failure) => failure.version === offer.version)) return;
    this.busy = true;
    try {
      const session = this.options.credentials.session();
      if (!session) return;
      const client = new ApiClient({ server: session.server, token: session.token, timeoutMs: this.options.requestTimeoutMs, signal: this.stopController.signal });
      logger.info({ version: offer.version, bytes: offer.size_bytes }, 'downloading a new release');
      const result = await client.getRelease(offer.version);
      if (!result.ok) {
        logger.warn({ version: offer.version, failure: describeFailure(result.failure) }, 'could not download the release; trying again later');
        await sleep(this.options.retryMs ?? 60_000, this.stopController.signal);
        this.busy = false;
        if (this.offer?.version === offer.version) void this.take(offer);
        return;
      }
      const refused = checkBundle(result.value, offer, key);
      if (refused) {
        // Nothing of it was unpacked; the box stays as it is and never takes this version again.
        logger.error({ version: offer.version, reason: refused }, 'release refused');
        releases.writeState({ ...state, failures: [...state.failures, { version: offer.version, reason: `refused: ${refused}`, at: new Date().toISOString(), reported: false }] });
        void this.reportOnce();
        return;
      }
      const previous = releases.currentVersion();
      // Only the running version stays beside the new one (the one to roll back to): older ones
      // go here, in the one process that unpacks, never while a switch is being made.
      releases.prune([previous]);
      releases.unpack(offer.version, result.value);
      releases.writeState({ ...state, pending: { version: offer.version, previous, switchedAt: new Date().toISOString(), starts: 0 } });
      releases.switchTo(offer.version);
      logger.info({ version: offer.version, previous: previous ?? '(packaged)' }, 'switched to the new release; restarting');
      this.options.restart(offer.version);
    } catch (e) {
      logger.error({ err: e, version: offer.version }, 'could not install the release');
    } finally {
      this.busy = false;
    }
  }

  /** Marks the running version healthy at its first successful upload after start. */
  private async watchHealth(): Promise<void> {
    const { releases, logger } = this.options;
    const signal = this.stopController.signal;
    while (!signal.aborted) {
      const at = this.options.lastUploadAt();
      if (at !== null && at >= this.startedAt) {
        releases.markHealthy(this.options.runningVersion, new Date(at));
        logger.info({ version: this.options.runningVersion }, 'healthy: first upload of this version succeeded');
        return;
      }
      await sleep(this.options.pollMs ?? 1000, signal);
    }
  }

  private async reportFailures(): Promise<void> {
    const signal = this.stopController.signal;
    while (!signal.aborted && !(await this.reportOnce())) await sleep(this.options.retryMs ?? 60_000, signal);
  }

  /** Sends the failures the console does not have yet; true when none is left. */
  private async reportOnce(): Promise<boolean> {
    const { releases, logger } = this.options;
    const unreported = releases.readState().failures.filter((failure) => !failure.reported);
    if (unreported.length === 0) return true;
    const session = this.options.credentials.session();
    if (!session) return false;
    const client = new ApiClient({ server: session.server, token: session.token, timeoutMs: this.options.requestTimeoutMs, signal: this.stopController.signal });
    for (const failure of unreported) {
      const result = await client.postUpdateFailure({ version: failure.version, reason: failure.reason });
      if (!result.ok) {
        logger.warn({ version: failure.version, failure: describeFailure(result.failure) }, 'could not report a failed update; trying again later');
        return false;
      }
      const state = releases.readState();
      releases.writeState({ ...state, failures: state.failures.map((f) => (f.version === failure.version ? { ...f, reported: true } : f)) });
      logger.info({ version: failure.version, reason: failure.reason }, 'failed update reported');
    }
    return true;
  }
}
