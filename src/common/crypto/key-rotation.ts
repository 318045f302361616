import { DataSource } from 'typeorm';
import { CryptoService } from './crypto.service';
import { ENCRYPTED_COLUMNS, EncryptedTable } from './encrypted-columns';
import { KeyRotationRepository } from './key-rotation.repository';

/** Rows re-encrypted per statement batch (all of a table's batches share one transaction). */
const BATCH = 200;

export interface TableRotation {
  table: string;
  /** Rows and values re-encrypted by this run (0 when the table was rolled back). */
  rows: number;
  values: number;
  /** Sealed values in the table after the run, and how many are under the current key. */
  total: number;
  current: number;
  /** Why the table was rolled back, when it was. */
  error?: string;
}

export class MissingColumnsError extends Error {}

/**
 * `npm run rotate-keys`: re-encrypts every value of the registry (src/common/crypto/encrypted-columns.ts)
 * that is not sealed under the current ENCRYPTION_KEY, with the keys CryptoService knows (current and
 * ENCRYPTION_KEY_PREVIOUS). One transaction per table: a table with a value neither key opens is
 * rolled back whole and reported, the others still rotate. Running it again finds nothing to do.
 */
export class KeyRotation {
  constructor(
    private readonly ds: DataSource,
    private readonly repo: KeyRotationRepository,
    private readonly crypto: CryptoService,
    private readonly tables: readonly EncryptedTable[] = ENCRYPTED_COLUMNS,
  ) {}

  async run(): Promise<TableRotation[]> {
    const missing = await this.repo.missingColumns(this.tables);
    if (missing.length) throw new MissingColumnsError(`The database has no ${missing.join(', ')}: run the migrations first (npm run migration:run)`);
    const out: TableRotation[] = [];
    for (const t of this.tables) out.push(await this.rotateTable(t));
    return out;
  }

  private async rotateTable(t: EncryptedTable): Promise<TableRotation> {
    const keyId = this.crypto.currentKeyId;
    let rows = 0;
    let values = 0;
    let error: string | undefined;
    try {
      await this.ds.transaction(async (m) => {
        for (;;) {
          // Re-encrypted rows no longer match, so each batch is the next one.
          const batch = await this.repo.lockStaleRows(t, keyId, BATCH, m);
          if (!batch.length) break;
          for (const row of batch) {
            const next: Record<string, string | null> = {};
            for (const column of t.columns) {
              const sealed = row.values[column];
              if (sealed && this.crypto.needsReseal(sealed)) {
                try {
                  next[column] = this.crypto.reseal(sealed);
                } catch (err) {
                  throw new Error(`${t.key} ${row.key}, column ${column}: ${(err as Error).message || 'cannot be decrypted'}`);
                }
                values++;
              } else next[column] = sealed ?? null;
            }
            await this.repo.writeValues(t, row.key, next, m);
            rows++;
          }
        }
      });
    } catch (err) {
      error = (err as Error).message;
      rows = 0;
      values = 0;
    }
    const counts = await this.repo.countValues(t, keyId, this.ds.manager);
    return { table: t.table, rows, values, total: counts.total, current: counts.underKey, ...(error ? { error } : {}) };
  }
}

/** One line per table, for the operator. */
export function describeRotation(r: TableRotation, keyId: string): string {
  if (r.error) {
    return `${r.table}: rolled back, nothing changed (${r.error}); ${r.current} of ${r.total} values are under key ${keyId}`;
  }
  return `${r.table}: re-encrypted ${r.values} values in ${r.rows} rows; ${r.current} of ${r.total} values are under key ${keyId}`;
}
