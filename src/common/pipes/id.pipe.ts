import { Injectable, NotFoundException, PipeTransform } from '@nestjs/common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** A path id that is not a UUID is simply "not found", never a database cast error. */
@Injectable()
export class IdPipe implements PipeTransform<string, string> {
  constructor(private readonly thing: string) {}
  transform(value: string): string {
    if (!isUuid(value)) throw new NotFoundException(`${this.thing} not found`);
    return value.toLowerCase();
  }
}

export const Id = (thing: string) => new IdPipe(thing);
