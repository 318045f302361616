import { Module } from '@nestjs/common';
import { QueueDashboardController } from './queue-dashboard.controller';
import { QueueDashboard } from './queue-dashboard.service';

/** Instance administration (API role): the queue dashboard (docs/decisions-local.md, "Queue dashboard"). */
@Module({ controllers: [QueueDashboardController], providers: [QueueDashboard], exports: [QueueDashboard] })
export class AdminModule {}
