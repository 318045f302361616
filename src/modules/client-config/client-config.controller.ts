import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/decorators/public.decorator';
import { ApiAnswer } from '../../common/http/api-errors';
import { ClientConfigService } from './client-config.service';
import { ClientConfigSchema } from '../client-config/client-config.schema';

@ApiTags('config')
@Controller('config')
export class ClientConfigController {
  constructor(private readonly config: ClientConfigService) {}

  @Public()
  @Get()
  @ApiAnswer('Client configuration', ClientConfigSchema)
  @ApiOperation({ summary: "The instance's settings a client needs before signing in: registration, email verification, SMTP, custom OAuth, version" })
  get() {
    return this.config.get();
  }
}
