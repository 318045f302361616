import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserDataModule } from '../auth/user-data.module';
import { Account } from './account.entity';
import { AccountRepository } from './account.repository';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { OAuthStateStore } from './oauth-state.store';
import { OidcClientService } from './oidc-client.service';

/** Sign-in with the custom OpenID Connect provider and the stored id token (docs/decisions-local.md, Custom OAuth). */
@Module({
  imports: [TypeOrmModule.forFeature([Account]), UserDataModule],
  controllers: [OAuthController],
  providers: [OAuthService, OidcClientService, OAuthStateStore, AccountRepository],
  exports: [OAuthService],
})
export class OAuthModule {}
