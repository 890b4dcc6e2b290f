// The gateway token as the daemon sees it. A 401 marks it revoked: uploads and config refreshes
// pause (readings keep being buffered) until `pair` writes a new token, which is picked up
// without a restart.
import type { Logger } from './log';
import type { DataDir, Pairing } from './state';

export interface Session {
  server: string;
  token: string;
  storeId: string;
}

export class Credentials {
  private pairing: Pairing | null = null;
  private revokedToken: string | null = null;

  constructor(
    private readonly dataDir: DataDir,
    private readonly serverOverride: string | undefined,
    private readonly logger: Logger,
  ) {}

  /** Re-reads the pairing file. Returns true when the token changed. */
  reload(): boolean {
    let next: Pairing | null;
    try {
      next = this.dataDir.readPairing();
    } catch (e) {
      this.logger.error({ err: e }, 'pairing file is unreadable');
      return false;
    }
    const changed = next?.gateway_token !== this.pairing?.gateway_token;
    this.pairing = next;
    if (changed && next && this.revokedToken !== null && next.gateway_token !== this.revokedToken) {
      this.revokedToken = null;
      this.logger.info({ storeId: next.store_id }, 'new gateway token found: uploads resume');
    }
    return changed;
  }

  /** The current session, or null when not paired or the token was revoked. */
  session(): Session | null {
    if (!this.pairing || this.revoked) return null;
    return {
      server: this.serverOverride ?? this.pairing.server,
      token: this.pairing.gateway_token,
      storeId: this.pairing.store_id,
    };
  }

  get paired(): boolean {
    return this.pairing !== null;
  }

  get revoked(): boolean {
    return this.pairing !== null && this.pairing.gateway_token === this.revokedToken;
  }

  get storeId(): string | null {
    return this.pairing?.store_id ?? null;
  }

  /** The server refused `token` (401/403). Logged loudly once per token. */
  markRevoked(token: string, detail: string): void {
    if (this.revokedToken === token) return;
    this.revokedToken = token;
    this.logger.error(
      { storeId: this.pairing?.store_id, detail },
      'GATEWAY TOKEN REVOKED: uploads stopped, readings are kept in the buffer; pair again (onreco-gateway pair) to resume',
    );
  }
}
