import { User } from './user.entity';

/** A user as the API answers it (never the password hash). */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  /** Whether the owner of `email` proved it (verification link, password reset or an OAuth provider). */
  emailVerified: boolean;
  image: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toUserRecord = (u: User): UserRecord => ({
  id: u.id,
  name: u.name,
  email: u.email,
  emailVerified: u.emailVerified,
  image: u.image ?? null,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});
