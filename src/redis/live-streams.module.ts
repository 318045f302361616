import { Global, Module } from '@nestjs/common';
import { LiveStreams } from './live-streams';

/** The workspaces' live streams, for both roles: the worker appends, the API reads (docs/live-events.md). */
@Global()
@Module({ providers: [LiveStreams], exports: [LiveStreams] })
export class LiveStreamsModule {}
