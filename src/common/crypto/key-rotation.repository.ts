import { DataSource, EntityManager } from 'typeorm';
import { EncryptedTable } from './encrypted-columns';

/** A row of an encrypted table: its key and the sealed values of its encrypted columns (NULL as null). */
export interface SealedRow {
  key: string;
  values: Record<string, string | null>;
}

/** Identifiers come from the registry (code, not input); still, only plain lower-case names are accepted. */
function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`);
  return `"${name}"`;
}

/** The statements of a key rotation (src/common/crypto/key-rotation.ts), over any table of the registry. */
export class KeyRotationRepository {
  constructor(private readonly ds: DataSource) {}

  /** `table.column` names of the registry that the database does not have (migrations not run yet). */
  async missingColumns(tables: readonly EncryptedTable[]): Promise<string[]> {
    const wanted = tables.flatMap((t) => [t.key, ...t.columns].map((c) => `${t.table}.${c}`));
    const rows: { name: string }[] = await this.ds.query(
      `SELECT w.name FROM unnest($1::text[]) AS w(name)
       WHERE NOT EXISTS (
         SELECT 1 FROM information_schema.columns c
         WHERE c.table_schema = current_schema() AND c.table_name || '.' || c.column_name = w.name)`,
      [wanted],
    );
    return rows.map((r) => r.name);
  }

  /**
   * Up to `limit` rows with a value that is not sealed under the key `currentKeyId` (a v1 value
   * or another key's), locked until `m`'s transaction ends.
   */
  async lockStaleRows(t: EncryptedTable, currentKeyId: string, limit: number, m: EntityManager): Promise<SealedRow[]> {
    const cols = t.columns.map(ident);
    const stale = cols.map((c) => `(${c} IS NOT NULL AND ${c} NOT LIKE $1)`).join(' OR ');
    const rows: Record<string, string | null>[] = await m.query(
      `SELECT ${ident(t.key)}::text AS "__key", ${cols.join(', ')} FROM ${ident(t.table)}
       WHERE ${stale} ORDER BY ${ident(t.key)} LIMIT $2 FOR UPDATE`,
      [`v2:${currentKeyId}:%`, limit],
    );
    return rows.map(({ __key, ...values }) => ({ key: __key!, values }));
  }

  /** Writes the row's encrypted columns (`values` names each of them); the key is compared in the column's own type, so the primary key index serves. */
  async writeValues(t: EncryptedTable, key: string, values: Record<string, string | null>, m: EntityManager): Promise<void> {
    const sets = t.columns.map((c, i) => `${ident(c)} = $${i + 2}`).join(', ');
    await m.query(`UPDATE ${ident(t.table)} SET ${sets} WHERE ${ident(t.key)} = $1`, [key, ...t.columns.map((c) => values[c] ?? null)]);
  }

  /** Sealed values in the table, and how many of them are under the key `keyId`. */
  async countValues(t: EncryptedTable, keyId: string, m: EntityManager): Promise<{ total: number; underKey: number }> {
    const cols = t.columns.map(ident);
    const [row]: { total: number; under_key: number }[] = await m.query(
      `SELECT (${cols.map((c) => `count(${c})`).join(' + ')})::int AS total,
              (${cols.map((c) => `count(*) FILTER (WHERE ${c} LIKE $1)`).join(' + ')})::int AS under_key
       FROM ${ident(t.table)}`,
      [`v2:${keyId}:%`],
    );
    return { total: row.total, underKey: row.under_key };
  }
}
