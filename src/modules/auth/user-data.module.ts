import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserToken } from './user-token.entity';
import { UserTokenRepository } from './user-token.repository';
import { User } from './user.entity';
import { UserRepository } from './user.repository';

/**
 * The users table (and the tokens of the account emails) without any route: how other modules,
 * and the worker role (which loads no controller), read users. AuthModule builds sign-up, sign-in
 * and account upkeep on the same repositories.
 */
@Module({
  imports: [TypeOrmModule.forFeature([User, UserToken])],
  providers: [UserRepository, UserTokenRepository],
  exports: [UserRepository, UserTokenRepository],
})
export class UserDataModule {}
