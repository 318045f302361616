import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DestinationGuard } from './destination-guard';

/** The destination guard, configured once (ALLOW_PRIVATE_DESTINATIONS, OUTBOUND_DNS_SERVERS), for both roles. */
@Global()
@Module({
  providers: [
    {
      provide: DestinationGuard,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new DestinationGuard({ allowPrivate: config.allowPrivateDestinations, dnsServers: config.outboundDnsServers }),
    },
  ],
  exports: [DestinationGuard],
})
export class NetModule {}
