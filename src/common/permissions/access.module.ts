import { Global, Module } from '@nestjs/common';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { ScopeRegistry } from './scope-registry';

@Global()
@Module({ providers: [ScopeRegistry, AccessService, AccessRepository], exports: [ScopeRegistry, AccessService] })
export class AccessModule {}
