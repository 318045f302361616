import { Global, Module } from '@nestjs/common';
import { AccessService } from './access.service';
import { ScopeRegistry } from './scope-registry';

@Global()
@Module({ providers: [ScopeRegistry, AccessService], exports: [ScopeRegistry, AccessService] })
export class AccessModule {}
