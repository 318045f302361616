import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { firstRow } from '../../database/sql';
import { User } from './user.entity';

/** Arbitrary constant naming "sign-ups" in pg_advisory_xact_lock's key space. */
const SIGN_UP_LOCK_KEY = 7_261_301_118;

export interface NewUser {
  name: string;
  email: string;
  image: string | null;
  passwordHash: string | null;
  emailVerified: boolean;
  isInstanceAdmin: boolean;
}

/**
 * The users table. Users belong to the instance, not to a workspace, so nothing here takes a
 * workspace id. Emails are passed already normalised (normalizeEmail).
 */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Serialises sign-ups until `m`'s transaction ends, so that exactly one first user becomes the instance admin. */
  async lockSignUps(m: EntityManager): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock($1)', [SIGN_UP_LOCK_KEY]);
  }

  async emailTaken(email: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    return (await m.query(`SELECT 1 FROM "user" WHERE email = $1`, [email])).length > 0;
  }

  async anyUserExists(m: EntityManager = this.ds.manager): Promise<boolean> {
    const [{ any }] = await m.query(`SELECT EXISTS (SELECT 1 FROM "user") AS any`);
    return any;
  }

  insert(fields: NewUser, m: EntityManager = this.ds.manager): Promise<User> {
    return m.save(m.create(User, fields));
  }

  findById(id: string, m: EntityManager = this.ds.manager): Promise<User | null> {
    return m.findOneBy(User, { id });
  }

  /** The user, which must exist (e.g. behind a valid token); throws otherwise. */
  getById(id: string, m: EntityManager = this.ds.manager): Promise<User> {
    return m.findOneByOrFail(User, { id });
  }

  findByIds(ids: string[], m: EntityManager = this.ds.manager): Promise<User[]> {
    return ids.length ? m.findBy(User, { id: In(ids) }) : Promise.resolve([]);
  }

  findByEmail(email: string, m: EntityManager = this.ds.manager): Promise<User | null> {
    return m.findOneBy(User, { email });
  }

  /** With the password hash, which every other read leaves out (sign-in only). */
  findByEmailWithPasswordHash(email: string): Promise<User | null> {
    return this.ds.getRepository(User).createQueryBuilder('u').addSelect('u.passwordHash').where('u.email = :email', { email }).getOne();
  }

  /**
   * Locks the user's row until `m`'s transaction ends and says whether it has a password; null
   * when the user does not exist. The lock serialises changes to the ways a user signs in.
   */
  async lockSignInMethods(id: string, m: EntityManager): Promise<{ hasPassword: boolean } | null> {
    const [row] = await m.query(`SELECT password_hash IS NOT NULL AS has_password FROM "user" WHERE id = $1 FOR UPDATE`, [id]);
    return row ? { hasPassword: row.has_password } : null;
  }

  /** With the password hash, which every other read leaves out (change-password only). */
  findByIdWithPasswordHash(id: string): Promise<User | null> {
    return this.ds.getRepository(User).createQueryBuilder('u').addSelect('u.passwordHash').where('u.id = :id', { id }).getOne();
  }

  /** Marks the email verified; true when it was not verified before (the proof is new). */
  async markEmailVerified(id: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    return (await firstRow(m, `UPDATE "user" SET email_verified = true, updated_at = now() WHERE id = $1 AND NOT email_verified RETURNING id`, [id])) !== undefined;
  }

  /**
   * Unlinks every outside sign-in identity of the user (the OAuth module's `account` rows): part
   * of ending the credentials made before an address was proven (docs/accounts.md, "When an
   * address is proven"). The auth module owns what a user signs in with; the OAuth module reads
   * and writes the rows of one sign-in, and cannot be imported here (it imports this module).
   */
  async unlinkSignInIdentities(id: string, m: EntityManager): Promise<void> {
    await m.query(`DELETE FROM account WHERE user_id = $1`, [id]);
  }

  /** Sets a new password hash; `verifyEmail` also marks the email verified (a reset proved the address). */
  async setPasswordHash(id: string, passwordHash: string, verifyEmail: boolean, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`UPDATE "user" SET password_hash = $2, email_verified = email_verified OR $3, updated_at = now() WHERE id = $1`, [id, passwordHash, verifyEmail]);
  }

  /** Writes the given profile fields (undefined = unchanged, null image = none). */
  async updateProfile(id: string, fields: { name?: string; image?: string | null }, m: EntityManager = this.ds.manager): Promise<void> {
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length) await m.update(User, { id }, set);
  }

  /**
   * Deletes the user. Foreign keys take their sessions, API keys, linked accounts, tokens,
   * memberships and team memberships with them, and leave their tasks unassigned and their
   * comments, activities and time entries without an author (docs/compatibility.md, "Profile").
   */
  async delete(id: string, m: EntityManager): Promise<void> {
    await m.query(`DELETE FROM "user" WHERE id = $1`, [id]);
  }

  async markEmailVerifiedWithoutPassword(id: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.update(User, { id }, { emailVerified: true, passwordHash: null });
  }
}
