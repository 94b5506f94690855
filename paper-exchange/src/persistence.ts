// Durable state on disk so that a kill -9 loses nothing acknowledged: every batch of changes is appended to
// a JSONL journal and fsync'd before the answer is sent; on start the snapshot and the journal are merged
// into a new snapshot (written to a temp file, fsync'd, renamed, directory fsync'd) and the journal restarts.
// The files hold every account's API secret: sealed under a key kept outside the folder when one is given
// (secret-seal.ts; the server and `npm run paper-exchange` always give one), and the folder is 0700 and the
// files 0600, whatever the umask.
import fs from 'node:fs';
import path from 'node:path';
import type { SecretSeal } from './secret-seal.js';
import { keyOf, type AccountRecord, type Change, type Snapshot, type TableName } from './state.js';

const SNAPSHOT = 'snapshot.json';
const JOURNAL = 'journal.jsonl';
/** Beyond this many journal bytes the exchange folds the journal into a new snapshot. */
const COMPACT_AFTER_BYTES = 32 * 1024 * 1024;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export class Journal {
  private fd: number | undefined;
  private bytes = 0;

  private constructor(
    private readonly dir: string,
    private readonly seal: SecretSeal | undefined,
  ) {}

  /** Reads the state left by the previous process (undefined on a first start) and opens a fresh journal. */
  static open(dir: string, seal?: SecretSeal): { journal: Journal; snapshot: Snapshot | undefined } {
    fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    // A folder or files an earlier version left readable by others are closed now.
    fs.chmodSync(dir, DIR_MODE);
    for (const name of [SNAPSHOT, JOURNAL]) {
      if (fs.existsSync(path.join(dir, name))) fs.chmodSync(path.join(dir, name), FILE_MODE);
    }
    const journal = new Journal(dir, seal);
    const snapshot = journal.recover();
    if (snapshot) {
      snapshot.tables.accounts = (snapshot.tables.accounts as AccountRecord[]).map((row) =>
        journal.openRow(row),
      );
    }
    return { journal, snapshot };
  }

  private recover(): Snapshot | undefined {
    const snapshotPath = path.join(this.dir, SNAPSHOT);
    const journalPath = path.join(this.dir, JOURNAL);
    // The snapshot is written at every start before any journal line, so no snapshot means no state.
    if (!fs.existsSync(snapshotPath)) return undefined;
    const snapshot = JSON.parse(fs.readFileSync(snapshotPath, 'utf8')) as Snapshot;
    if (!fs.existsSync(journalPath)) return snapshot;
    const tables = new Map<TableName, Map<string, unknown>>();
    for (const table of Object.keys(snapshot.tables) as TableName[]) {
      tables.set(table, new Map(snapshot.tables[table].map((row) => [String(keyOf(table, row)), row])));
    }
    for (const line of fs.readFileSync(journalPath, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let changes: Change[];
      try {
        changes = JSON.parse(line) as Change[];
      } catch {
        // A torn last line was never fsync'd, so it was never acknowledged: stop here.
        break;
      }
      for (const change of changes) {
        if (change.table === 'counters') snapshot.counters = change.value as Snapshot['counters'];
        else if (change.table === 'market') snapshot.market = change.value as Snapshot['market'];
        else if (change.value === null) tables.get(change.table)?.delete(change.key);
        else tables.get(change.table)?.set(change.key, change.value);
      }
    }
    for (const [table, rows] of tables) snapshot.tables[table] = [...rows.values()];
    return snapshot;
  }

  /** Replaces snapshot + journal by one snapshot, atomically, and starts an empty journal. */
  compact(whole: Snapshot): void {
    const accounts = (whole.tables.accounts as AccountRecord[]).map((row) => this.sealRow(row));
    const snapshot = { ...whole, tables: { ...whole.tables, accounts } };
    this.closeFd();
    const snapshotPath = path.join(this.dir, SNAPSHOT);
    const temp = `${snapshotPath}.tmp`;
    const fd = fs.openSync(temp, 'w', FILE_MODE);
    fs.writeSync(fd, JSON.stringify(snapshot));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(temp, snapshotPath);
    fsyncDir(this.dir);
    this.fd = fs.openSync(path.join(this.dir, JOURNAL), 'w', FILE_MODE);
    fs.fsyncSync(this.fd);
    fsyncDir(this.dir);
    this.bytes = 0;
  }

  get needsCompaction(): boolean {
    return this.bytes > COMPACT_AFTER_BYTES;
  }

  /** Appends one batch and waits for the disk: called before the answer that acknowledges it. */
  append(changes: Change[]): void {
    if (changes.length === 0) return;
    if (this.fd === undefined) this.fd = fs.openSync(path.join(this.dir, JOURNAL), 'a', FILE_MODE);
    const sealed = changes.map((change) =>
      change.table === 'accounts' && change.value
        ? { ...change, value: this.sealRow(change.value as AccountRecord) }
        : change,
    );
    const line = `${JSON.stringify(sealed)}\n`;
    fs.writeSync(this.fd, line);
    fs.fsyncSync(this.fd);
    this.bytes += line.length;
  }

  close(): void {
    this.closeFd();
  }

  /** An account row as written: its secret sealed (when a key is given). */
  private sealRow(row: AccountRecord): AccountRecord {
    return this.seal ? { ...row, secret: this.seal.seal(row.secret, row.apiKey) } : row;
  }

  /** An account row as read: its secret opened; a sealed one without the key stops the start, saying why. */
  openRow(row: AccountRecord): AccountRecord {
    if (!row.secret.startsWith('pe1.')) return row;
    if (!this.seal) {
      throw new Error(
        "the paper exchange's data folder holds sealed secrets: give its seal key (PAPER_EXCHANGE_SEAL_KEY, README)",
      );
    }
    return { ...row, secret: this.seal.open(row.secret, row.apiKey) };
  }

  private closeFd(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  }
}
