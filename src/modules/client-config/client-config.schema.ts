import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, TextProp } from '../../common/http/schema-props';

/** Client configuration (`GET /config`; ClientConfigRecord). */
@ApiSchema({ name: 'ClientConfig' })
export class ClientConfigSchema {
  @FlagProp() disableRegistration: boolean;
  @FlagProp() requireEmailVerification: boolean;
  @FlagProp() hasSmtp: boolean;
  @FlagProp() hasCustomOAuth: boolean;
  @ApiProperty({ type: Boolean, enum: [false] }) disableWorkspaceCreation: false;
  @ApiProperty({ type: Boolean, enum: [false] }) isDemoMode: false;
  @TextProp() version: string;
}
