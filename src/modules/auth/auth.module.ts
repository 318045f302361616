import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail/mail.module';
import { OrganizationDataModule } from '../organization/organization-data.module';
import { AccountController } from './account.controller';
import { AccountService } from './account.service';
import { ApiKey } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { JwtStrategy } from './jwt.strategy';
import { Session } from './session.entity';
import { SessionRepository } from './session.repository';
import { UserDataModule } from './user-data.module';

/**
 * Sign-up, sign-in, sessions, API keys and account upkeep (API role; the account emails are
 * composed in AccountEmailModule, worker role). Global, so that the guard and other
 * modules reach AuthService without importing it. Sessions and API keys stay private to it;
 * users are in UserDataModule; DISABLE_REGISTRATION asks the organization module's invitations.
 */
@Global()
@Module({
  imports: [PassportModule, TypeOrmModule.forFeature([Session, ApiKey]), UserDataModule, OrganizationDataModule, MailModule],
  controllers: [AuthController, AccountController],
  providers: [AuthService, AccountService, JwtStrategy, AuthGuard, SessionRepository, ApiKeyRepository],
  exports: [AuthService, AuthGuard],
})
export class AuthModule {}
