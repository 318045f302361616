import { User } from './user.entity';

/** A user as the API answers it (never the password hash). */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  image: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toUserRecord = (u: User): UserRecord => ({
  id: u.id,
  name: u.name,
  email: u.email,
  image: u.image ?? null,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});
