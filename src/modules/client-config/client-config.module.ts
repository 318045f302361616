import { Module } from '@nestjs/common';
import { ClientConfigController } from './client-config.controller';
import { ClientConfigService } from './client-config.service';

/** `GET /config`: the instance's public settings for clients (docs/compatibility.md). */
@Module({ controllers: [ClientConfigController], providers: [ClientConfigService] })
export class ClientConfigModule {}
