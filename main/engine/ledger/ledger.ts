import { join } from 'node:path';
import {
  checkLedgerChain,
  GENESIS_HASH,
  LEDGER_FORMAT,
  parseLedgerText,
  signLedgerEntry,
  type ChainCheck,
  type LedgerEntry,
  type LedgerLine,
  type LedgerRecord,
} from '../../../domain/ledger';
import { fsyncDir, nodeFileSystem, readFileIfExists, type FileSystem } from '../../../platform/durable-file';
import { tryAcquireLock } from '../../../platform/durable-lock';
import type { QuarantinedFile } from '../../../platform/quarantine';
import type { SecretStore } from '../../../platform/secret-store';
import { containerSignerFromPem, type ContainerSigner } from '../../../domain/files/work-package-container';
import { signEnrolmentProof, type WorkstationEnrolment } from '../../../domain/workstation-keys';
import { LEDGER_HEAD_SECRET, openLedgerHead, sealLedgerHead, type LedgerHead } from './ledger-head';
import { loadOrCreateLedgerKey, type LedgerKey } from './ledger-key';
import { readLedgerEntriesSince, readLedgerTail } from './ledger-tail';
import { lineNumberAt, readLedgerBackward } from './ledger-backward';
import type { LedgerFromHead } from './chain-from-head';

/**
 * The local ledger: `<dir>/ledger.jsonl`, one signed entry per line, only ever appended to.
 * Appends from several processes (the desktop app, a CLI beside it) are serialized by a lock file,
 * so each entry links to the one truly before it. An append is on disk (fsync) before it returns.
 */

export const LEDGER_FILE = 'ledger.jsonl';
const LOCK_FILE = 'ledger.lock';
/** An append holds the lock for milliseconds; one held this long belongs to a process that died. */
const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 20_000;
const LOCK_POLL_MS = 25;

export interface LedgerOptions {
  dir: string;
  secrets: SecretStore;
  fs?: FileSystem;
  now?: () => number;
  onQuarantine?: (file: QuarantinedFile) => void;
}

export class Ledger {
  readonly path: string;
  private readonly dir: string;
  private readonly fs: FileSystem;
  private readonly now: () => number;
  private key: LedgerKey | undefined;

  constructor(private readonly options: LedgerOptions) {
    this.dir = options.dir;
    this.path = join(options.dir, LEDGER_FILE);
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
  }

  /** Signs and appends one entry, linked to the last one; returns it as written. */
  async append(record: LedgerRecord): Promise<LedgerEntry> {
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    return this.locked(async () => {
      this.key ??= await loadOrCreateLedgerKey(this.options.secrets, {
        now: this.now,
        onQuarantine: this.options.onQuarantine,
      });
      // Link to the last entry that can be read: a damaged line stays where it is, and verify names it.
      // Read from the file's end, so an append costs the same at 100,000 entries as at 10.
      const tail = await readLedgerTail(this.fs, this.path);
      const last = tail.last;
      const entry = signLedgerEntry(
        {
          ...record,
          format: LEDGER_FORMAT,
          seq: (last?.seq ?? 0) + 1,
          prevHash: last?.hash ?? GENESIS_HASH,
          signerKey: this.key.signerKey,
        },
        this.key.privateKeyPem,
      );
      // A line torn by a crash mid-append has no newline yet: end it, so the new entry stands on its own line.
      const text = `${tail.tornTail ? '\n' : ''}${JSON.stringify(entry)}\n`;
      const handle = await this.fs.open(this.path, 'a', 0o600);
      try {
        await handle.write(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (!tail.exists) await fsyncDir(this.fs, this.dir);
      // The head in a second place, signed: entries cut from the end of the file no longer match it.
      await this.options.secrets.set(
        LEDGER_HEAD_SECRET,
        JSON.stringify(sealLedgerHead({ seq: entry.seq, hash: entry.hash }, this.key.privateKeyPem)),
      );
      return entry;
    });
  }

  /** The ledger key's public half, as its entries carry it (the key is made on first use, as an append does). */
  async signerKey(): Promise<string> {
    return (await this.signingKey()).signerKey;
  }

  /**
   * What enrols this workstation's ledger key in an organization (domain/workstation-keys.ts): the
   * key's public half and its own signature over the organization, the workstation and the key.
   */
  async enrolment(
    orgId: string,
    workstation: string,
    options: { rotate?: boolean } = {},
  ): Promise<WorkstationEnrolment> {
    const key = await this.signingKey();
    const proof = signEnrolmentProof({ orgId, workstation, publicKey: key.signerKey }, key.privateKeyPem);
    return { workstation, publicKey: key.signerKey, proof, ...(options.rotate ? { rotate: true } : {}) };
  }

  /** The ledger key as a signer of files (a confirmations file is signed by the workstation's enrolled key). */
  async containerSigner(): Promise<ContainerSigner> {
    return containerSignerFromPem((await this.signingKey()).privateKeyPem);
  }

  private async signingKey(): Promise<LedgerKey> {
    if (this.key) return this.key;
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    // Under the lock, as in append: two processes on first use must not each make a key.
    return this.locked(
      async () =>
        (this.key ??= await loadOrCreateLedgerKey(this.options.secrets, {
          now: this.now,
          onQuarantine: this.options.onQuarantine,
        })),
    );
  }

  /** The head sealed by the last append (count and last hash, signed by the ledger key), or why it cannot be read; undefined when none was kept. */
  async sealedHead(): Promise<LedgerHead | { fault: string } | undefined> {
    const kept = await this.options.secrets.get(LEDGER_HEAD_SECRET);
    if (kept === null) return undefined;
    const key = await this.signingKey();
    return openLedgerHead(kept, key.signerKey);
  }

  /** Every line of the ledger, oldest first: an entry, or why that line is not one. */
  async readAll(): Promise<LedgerLine[]> {
    const raw = await readFileIfExists(this.fs, this.path);
    return raw ? parseLedgerText(raw.toString('utf8')) : [];
  }

  /** The ledger read from its end backwards, a chunk at a time, with its sealed head: for readers that need only its newest entries (checkChainFromHead). */
  fromHead(): LedgerFromHead {
    return {
      lines: () => readLedgerBackward(this.fs, this.path),
      lineNumber: (offset) => lineNumberAt(this.fs, this.path, offset),
      sealedHead: () => this.sealedHead(),
    };
  }

  /** The entries of the ledger, oldest first, without the lines that are not one. */
  async entries(): Promise<LedgerEntry[]> {
    return (await this.readAll()).flatMap((line) => ('entry' in line ? [line.entry] : []));
  }

  /** The entries of `since` or later, oldest first, read from the file's end (not the whole ledger). */
  async entriesSince(since: Date): Promise<LedgerEntry[]> {
    return readLedgerEntriesSince(this.fs, this.path, since);
  }

  /** The chain check of the whole file: the first broken link, if any. */
  async verify(): Promise<ChainCheck> {
    return checkLedgerChain(await this.readAll());
  }

  private async locked<T>(work: () => Promise<T>): Promise<T> {
    const lockPath = join(this.dir, LOCK_FILE);
    const deadline = this.now() + LOCK_WAIT_MS;
    for (;;) {
      const lock = await tryAcquireLock(lockPath, { fs: this.fs, staleMs: LOCK_STALE_MS });
      if (lock) {
        try {
          return await work();
        } finally {
          await lock.release();
        }
      }
      if (this.now() > deadline)
        throw new Error(
          `The ledger is locked by another Provisioner process (${lockPath}); try again, or delete that file if no other Provisioner is running.`,
        );
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
}
