import { isConnectionError, RedisOutageLog } from './guarded-bullmq';

describe('RedisOutageLog', () => {
  const make = () => {
    const logger = { warn: jest.fn(), log: jest.fn() };
    return { logger, outages: new RedisOutageLog(logger as any) };
  };

  it('one warning when the first worker loses Redis, one line when the last is back', () => {
    const { logger, outages } = make();
    const [email, events] = [{}, {}];
    outages.down(email, 'email', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    outages.down(events, 'task-events', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    outages.down(email, 'email', new Error('Connection is closed.'));
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toBe(
      'queue workers: Redis is unreachable (queue email: connect ECONNREFUSED 127.0.0.1:6379); jobs wait in Redis and the workers reconnect by themselves',
    );
    outages.up(email);
    expect(logger.log).not.toHaveBeenCalled();
    outages.up(events);
    outages.up(events);
    expect(logger.log.mock.calls).toEqual([['queue workers: Redis is reachable again; jobs are processed']]);
    // The next outage is reported again.
    outages.down(email, 'email', new Error('read ECONNRESET'));
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('a worker connected from the start, or closed during the outage, reports no recovery', () => {
    const { logger, outages } = make();
    const worker = {};
    outages.up(worker);
    outages.down(worker, 'email', new Error('connect ECONNREFUSED'));
    outages.forget(worker);
    outages.up(worker);
    expect(logger.log).not.toHaveBeenCalled();
  });
});

describe('isConnectionError', () => {
  it('tells connection trouble from other worker errors', () => {
    expect(isConnectionError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(isConnectionError(new Error('read ECONNRESET'))).toBe(true);
    expect(isConnectionError(new Error('Missing lock for job 12. moveToFinished'))).toBe(false);
    expect(isConnectionError(new Error('No email composer for job "x"'))).toBe(false);
  });
});
