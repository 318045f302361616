import { TaskEvent } from '../../task/task-event';
import { notificationEmail, serverpushRequest, topicpushRequest, headerText } from './channel-messages';
import { BATCH_LINES, formatDuration, messageText, notificationText } from './notification-text';

const CLIENT = 'https://app.example.test';
const event = (kind: TaskEvent['kind'], data: Record<string, unknown>, over: Partial<TaskEvent> = {}): TaskEvent => ({
  id: 'e1',
  kind,
  occurredAt: '2030-01-02T03:04:05.678Z',
  workspaceId: 'w',
  project: { id: 'p', name: 'Apollo', slug: 'APO' },
  task: { id: 't', number: 12, title: 'Launch', description: null, status: 'done', priority: 'high', assigneeId: 'bob' },
  actor: { id: 'ada', name: 'Ada' },
  data,
  ...over,
});

describe('notificationText', () => {
  it('speaks to the assignee, with the task heading and what changed', () => {
    const s = notificationText(event('taskStatusChanged', { oldStatus: 'to-do', newStatus: 'done' }), CLIENT);
    expect(s).toEqual({
      type: 'task.status_changed',
      heading: '[Apollo] #12 Launch',
      title: 'Ada changed the status of your task',
      details: ['Status: to-do → done'],
      content: '[Apollo] #12 Launch\nStatus: to-do → done',
      line: 'Ada changed the status: to-do → done',
      taskUrl: `${CLIENT}/projects/p/tasks/t`,
    });
    expect(notificationText(event('taskAssigned', { oldUserId: null, newUserId: 'bob' }), CLIENT)).toMatchObject({
      type: 'task.assigned',
      title: 'Ada assigned a task to you',
      content: '[Apollo] #12 Launch',
    });
    expect(notificationText(event('taskCommentCreated', { commentId: 'c', content: 'Ship\nit' }), CLIENT)).toMatchObject({
      title: 'Ada commented on your task',
      content: '[Apollo] #12 Launch\nShip\nit',
      line: 'Ada commented: Ship it',
    });
    expect(notificationText(event('taskCreated', {}, { actor: null }), CLIENT).title).toBe('Tandem created a task for you');
  });

  it('time entries: the duration and start, or a running timer', () => {
    const done = notificationText(
      event('timeEntryCreated', { timeEntryId: 'x', startTime: '2030-01-02T09:00:00.000Z', endTime: '2030-01-02T10:30:00.000Z', duration: 5400, description: 'Pairing' }),
      CLIENT,
    );
    expect(done).toMatchObject({
      type: 'task.time_entry_created',
      title: 'Ada logged time on your task',
      details: ['Time: 1 h 30 min from 2030-01-02 09:00 UTC', 'Pairing'],
      line: 'Ada logged 1 h 30 min',
    });
    const running = notificationText(event('timeEntryCreated', { startTime: '2030-01-02T09:00:00.000Z', endTime: null, duration: 0, description: null }), CLIENT);
    expect(running.details).toEqual(['Time: timer started 2030-01-02 09:00 UTC']);
    expect([formatDuration(30), formatDuration(60), formatDuration(3600), formatDuration(3660)]).toEqual(['30 s', '1 min', '1 h', '1 h 1 min']);
  });
});

describe('messages', () => {
  const one = notificationText(event('taskStatusChanged', { oldStatus: 'to-do', newStatus: 'done' }), CLIENT);

  it('one event: its title and content; a burst: a count and one line per event, the rest counted', () => {
    expect(messageText([one])).toMatchObject({ title: one.title, body: one.content, count: 1 });
    const many = Array.from({ length: BATCH_LINES + 5 }, () => one);
    const m = messageText(many);
    expect(m.title).toBe(`${BATCH_LINES + 5} updates on your task`);
    expect(m.lines).toHaveLength(BATCH_LINES + 1);
    expect(m.lines[BATCH_LINES]).toBe('… and 5 more');
    expect(m.body.split('\n')[0]).toBe('[Apollo] #12 Launch');
  });

  it('topicpush: POST {server}/{topic} with Title, Click and a bearer token; non-ASCII titles encoded', () => {
    const req = topicpushRequest({ serverUrl: 'https://ntfy.example/', topic: 'me', token: 'tk_secret' }, messageText([one]));
    expect(req.url).toBe('https://ntfy.example/me');
    expect(req.headers).toMatchObject({ Title: 'Ada changed the status of your task', Click: `${CLIENT}/projects/p/tasks/t`, Authorization: 'Bearer tk_secret' });
    expect(req.body).toBe(one.content);
    expect(topicpushRequest({ serverUrl: 'https://ntfy.example', topic: 'me', token: null }, messageText([one])).headers.Authorization).toBeUndefined();
    expect(headerText('Zoë\r\nX-Evil: 1')).toBe(`=?UTF-8?B?${Buffer.from('Zoë X-Evil: 1').toString('base64')}?=`);
    expect(headerText('plain\ntext')).toBe('plain text');
  });

  it('serverpush: POST {server}/message?token=… with {title, message, priority: 5}', () => {
    const req = serverpushRequest({ serverUrl: 'https://gotify.example/base', token: 'A+B/c' }, messageText([one]));
    expect(req.url).toBe('https://gotify.example/base/message?token=A%2BB%2Fc');
    expect(JSON.parse(req.body)).toEqual({ title: one.title, message: `${one.content}\n${one.taskUrl}`, priority: 5 });
  });

  it('email: subject, both parts, the task link and the preferences link in the footer; user text escaped in HTML', () => {
    const evil = notificationText(event('taskCommentCreated', { content: '<script>x</script>' }, { project: { id: 'p', name: 'R&D', slug: 'R' } }), CLIENT);
    const mail = notificationEmail('bob@example.test', messageText([evil]), `${CLIENT}/settings/notifications`);
    expect(mail.subject).toBe('[R&D] #12 Launch: Ada commented on your task');
    expect(mail.text).toContain('<script>x</script>');
    expect(mail.text).toContain(`Open the task: ${CLIENT}/projects/p/tasks/t`);
    expect(mail.text).toContain(`${CLIENT}/settings/notifications`);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).toContain(`<a href="${CLIENT}/settings/notifications">`);
    expect(notificationEmail('b@x', messageText([one, one, one]), 'u').subject).toBe('[Apollo] #12 Launch: 3 updates');
  });
});
