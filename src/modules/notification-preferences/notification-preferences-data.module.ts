import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NotificationPreference } from './notification-preference.entity';
import { NotificationPreferencesRepository } from './notification-preferences.repository';
import { NotificationRule } from './notification-rule.entity';

/**
 * The preference tables and their repository without any route: the API's preferences service
 * and the worker's notification fan-out and channel deliveries read them through here.
 */
@Module({
  imports: [TypeOrmModule.forFeature([NotificationPreference, NotificationRule])],
  providers: [NotificationPreferencesRepository],
  exports: [NotificationPreferencesRepository],
})
export class NotificationPreferencesDataModule {}
