import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsObject, IsOptional } from 'class-validator';
import { MaxJsonLength } from '../../../common/validation/dto-helpers';
import { OptionalOrganizationIdBody } from './organization.dto';
import { IsPermissionInput, IsRequiredString } from './validators';

/** Role names are joined with commas on the member row, so they are restricted to a safe alphabet. */
export const ROLE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/;

export class CreateRoleDto extends OptionalOrganizationIdBody {
  @ApiProperty({ example: 'task-editor', description: '1–50 letters, digits, "_" or "-"; not a built-in role name' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsRequiredString({ max: 50, pattern: ROLE_NAME, patternMessage: 'must be 1-50 letters, digits, "_" or "-", starting with a letter or digit' })
  role: string;

  @ApiProperty({
    oneOf: [{ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, { type: 'string' }],
    description: '{resource: [action, ...]} or a JSON string of it',
    example: { task: ['update'] },
  })
  @IsPermissionInput()
  permission: Record<string, string[]> | string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'free-form fields stored with the role' })
  @IsOptional()
  @IsObject()
  @MaxJsonLength(10_000)
  additionalFields?: Record<string, unknown>;
}
