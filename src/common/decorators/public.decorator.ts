import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'tandem:public';
/** The route answers without credentials. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
