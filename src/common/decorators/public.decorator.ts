import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiPublic } from '../http/api-errors';

export const IS_PUBLIC = 'tandem:public';
/** The route answers without credentials (and the OpenAPI document says so). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiPublic());
