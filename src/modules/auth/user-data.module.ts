import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from './user.entity';
import { UserRepository } from './user.repository';

/**
 * The users table without any route: how other modules, and the worker role (which loads no
 * controller), read users. AuthModule builds sign-up and sign-in on the same repository.
 */
@Module({
  imports: [TypeOrmModule.forFeature([User])],
  providers: [UserRepository],
  exports: [UserRepository],
})
export class UserDataModule {}
