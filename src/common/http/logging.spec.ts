import { QueryFailedError } from 'typeorm';
import { loggerParams, redactUrl } from './logging';
import type { AppConfig } from '../../config/app-config';

describe('redactUrl', () => {
  it('hides credential-bearing query values', () => {
    expect(redactUrl('/api/auth/oauth2/callback/custom?code=abc&state=def&x=1')).toBe(
      '/api/auth/oauth2/callback/custom?code=%5BREDACTED%5D&state=%5BREDACTED%5D&x=1',
    );
    expect(redactUrl('/api/x?token=t&api_key=k')).not.toMatch(/=t(&|$)|=k(&|$)/);
  });
  it('leaves other URLs alone', () => {
    expect(redactUrl('/api/task/1')).toBe('/api/task/1');
    expect(redactUrl('/api/search?q=hello&limit=5')).toBe('/api/search?q=hello&limit=5');
  });
});

describe('the err serializer of the logger', () => {
  it('drops the parameters and the detail of a database error, which can hold secrets', () => {
    const driverError = Object.assign(new Error('null value in column "name" violates not-null constraint'), {
      code: '23502',
      detail: 'Failing row contains (1, null, $argon2id$v=19$secret-hash).',
    });
    const err = new QueryFailedError('INSERT INTO "user" VALUES ($1, $2, $3)', ['1', null, '$argon2id$v=19$secret-hash'], driverError);
    const serialize = (loggerParams({ logLevel: 'info' } as AppConfig).pinoHttp as any).serializers.err;
    const out = JSON.stringify(serialize(err));
    expect(out).not.toContain('secret-hash');
    expect(out).toContain('23502');
    expect(out).toContain('violates not-null constraint');
  });
});
