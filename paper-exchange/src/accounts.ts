// Accounts: provisioning (HMAC key pair or a registered Ed25519 public key), API-key lookup, per-symbol
// settings (leverage, margin type) and listen keys of the user data stream (reference §9, kept in memory).
import crypto from 'node:crypto';
import { findSymbol } from './market/symbols.js';
import { D } from './num.js';
import type { AccountRecord, MarginType, Store, SymbolSettings } from './state.js';

/** Binance's defaults for a symbol never configured: 20× (capped by the symbol) and cross margin. */
const DEFAULT_LEVERAGE = 20;
const DEFAULT_MARGIN_TYPE: MarginType = 'CROSSED';
/** Listen keys live 60 minutes without a keepalive (reference §9). */
export const LISTEN_KEY_TTL_MS = 60 * 60 * 1000;

interface ListenKeyEntry {
  key: string;
  accountId: number;
  expiresAt: number;
}

export class Accounts {
  private readonly byKey = new Map<string, AccountRecord>();
  private readonly listenKeys = new Map<string, ListenKeyEntry>();

  constructor(private readonly store: Store) {
    for (const account of store.tables.accounts.values()) this.byKey.set(account.apiKey, account);
  }

  get(id: number): AccountRecord | undefined {
    return this.store.tables.accounts.get(id);
  }

  findByApiKey(apiKey: string): AccountRecord | undefined {
    return this.byKey.get(apiKey);
  }

  /** New HMAC account with its key pair (64 hex characters each, like Binance's). */
  createHmac(balance: string, now: number): { account: AccountRecord; apiSecret: string } {
    const apiSecret = crypto.randomBytes(32).toString('hex');
    const account = this.create('HMAC', apiSecret, balance, now);
    return { account, apiSecret };
  }

  /** New account authenticated by an Ed25519 public key; the key is validated here. */
  createEd25519(publicKeyPem: string, balance: string, now: number): AccountRecord {
    const key = crypto.createPublicKey(publicKeyPem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('public key is not an Ed25519 key');
    return this.create('ED25519', key.export({ type: 'spki', format: 'pem' }).toString(), balance, now);
  }

  private create(
    keyType: AccountRecord['keyType'],
    secret: string,
    balance: string,
    now: number,
  ): AccountRecord {
    const id = this.store.nextId('accountId');
    const account: AccountRecord = {
      id,
      apiKey: crypto.randomBytes(32).toString('hex'),
      keyType,
      secret,
      walletBalance: new D(balance).toString(),
      dualSidePosition: false,
      legacyConditionalOrders: null,
      symbols: {},
      createdAt: now,
      updateTime: now,
    };
    this.store.put('accounts', id, account);
    this.byKey.set(account.apiKey, account);
    return account;
  }

  settings(account: AccountRecord, symbol: string): SymbolSettings {
    const existing = account.symbols[symbol];
    if (existing) return existing;
    const maxLeverage = findSymbol(symbol)?.maxLeverage ?? DEFAULT_LEVERAGE;
    return { leverage: Math.min(DEFAULT_LEVERAGE, maxLeverage), marginType: DEFAULT_MARGIN_TYPE };
  }

  updateSettings(account: AccountRecord, symbol: string, change: Partial<SymbolSettings>, now: number): void {
    account.symbols[symbol] = { ...this.settings(account, symbol), ...change };
    account.updateTime = now;
    this.store.touch('accounts', account.id);
  }

  /** POST listenKey: the account's active key is returned and extended, else a new one (reference §9). */
  openListenKey(account: AccountRecord, now: number): string {
    for (const entry of this.listenKeys.values()) {
      if (entry.accountId === account.id && entry.expiresAt > now) {
        entry.expiresAt = now + LISTEN_KEY_TTL_MS;
        return entry.key;
      }
    }
    const key = crypto.randomBytes(48).toString('base64url').slice(0, 64);
    this.listenKeys.set(key, { key, accountId: account.id, expiresAt: now + LISTEN_KEY_TTL_MS });
    return key;
  }

  keepAliveListenKey(account: AccountRecord, key: string | undefined, now: number): string | undefined {
    const entry = key
      ? this.listenKeys.get(key)
      : [...this.listenKeys.values()].find((candidate) => candidate.accountId === account.id);
    if (!entry || entry.accountId !== account.id || entry.expiresAt <= now) return undefined;
    entry.expiresAt = now + LISTEN_KEY_TTL_MS;
    return entry.key;
  }

  closeListenKey(account: AccountRecord, key: string | undefined): string[] {
    const closed: string[] = [];
    for (const entry of this.listenKeys.values()) {
      if (entry.accountId === account.id && (key === undefined || entry.key === key)) closed.push(entry.key);
    }
    for (const k of closed) this.listenKeys.delete(k);
    return closed;
  }

  /** Account of a live listen key, or undefined when unknown or expired. */
  listenKeyAccount(key: string, now: number): number | undefined {
    const entry = this.listenKeys.get(key);
    if (!entry || entry.expiresAt <= now) return undefined;
    return entry.accountId;
  }

  /** Removes expired keys and returns them, so the streams can send listenKeyExpired. */
  expireListenKeys(now: number): { key: string; accountId: number }[] {
    const expired: { key: string; accountId: number }[] = [];
    for (const entry of this.listenKeys.values()) {
      if (entry.expiresAt <= now) expired.push({ key: entry.key, accountId: entry.accountId });
    }
    for (const { key } of expired) this.listenKeys.delete(key);
    return expired;
  }
}
