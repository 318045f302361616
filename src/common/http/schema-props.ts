import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

/**
 * @ApiProperty shorthands for the OpenAPI schemas of records (docs/records.md): ids are UUID
 * strings, timestamps ISO 8601 date-time strings, a field without a value is `null` (nullable),
 * never missing (every property required).
 */
type Extra = Omit<ApiPropertyOptions, 'type' | 'format' | 'nullable'> & { nullable?: boolean };
const prop = (base: Record<string, unknown>, extra: Extra = {}) => ApiProperty({ ...base, ...extra } as ApiPropertyOptions);

export const IdProp = (extra?: Extra) => prop({ type: String, format: 'uuid' }, extra);
export const TimeProp = (extra?: Extra) => prop({ type: String, format: 'date-time' }, extra);
export const TextProp = (extra?: Extra) => prop({ type: String }, extra);
export const IntProp = (extra?: Extra) => prop({ type: 'integer' }, extra);
export const FlagProp = (extra?: Extra) => prop({ type: Boolean }, extra);
/** A free-form JSON object (`{…}`), documented with additionalProperties. */
export const ObjectProp = (extra?: Extra) => prop({ type: 'object', additionalProperties: true }, extra);
/** `{resource: [actions]}`. */
export const PermissionMapProp = (extra?: Extra) => prop({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, extra);

/**
 * A nested record that may be null: `allOf: [$ref]` with `nullable` (OpenAPI 3.0 ignores the
 * siblings of a bare $ref), without the `type: object` Nest would add beside it (a bare object).
 */
export const NullableRefProp = (target: Function, extra: Omit<Extra, 'nullable'> = {}): PropertyDecorator =>
  applyDecorators(ApiProperty({ allOf: [{ $ref: getSchemaPath(target) }], nullable: true, ...extra } as ApiPropertyOptions));
