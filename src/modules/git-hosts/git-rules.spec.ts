import { createHmac } from 'node:crypto';
import { validate } from 'class-validator';
import { httpUrl } from './git-events';
import { readComment, readWebhook } from './git-payloads';
import { commentContent, isValidBranchPattern, labelColor, readLabels, taskDescription, taskNumberInBranch, taskTitle, transitionStatus, transitionTarget } from './git-rules';
import { IsBranchPattern } from './git-validators';
import { hmacSha256Matches, sha256Hex } from './webhook-signature';

const BOARD = [
  { slug: 'to-do', isFinal: false },
  { slug: 'in-progress', isFinal: false },
  { slug: 'in-review', isFinal: false },
  { slug: 'done', isFinal: true },
];

describe('branch pattern', () => {
  it('finds the task number where the pattern stands alone in the branch name, case-insensitively', () => {
    const p = '{slug}-{number}';
    expect(taskNumberInBranch(p, 'API', 'API-12')).toBe(12);
    expect(taskNumberInBranch(p, 'API', 'feature/api-12-login')).toBe(12);
    expect(taskNumberInBranch(p, 'API', 'fix_API-7')).toBe(7);
    expect(taskNumberInBranch(p, 'API', 'xapi-12')).toBeNull();
    expect(taskNumberInBranch(p, 'API', 'api-12x')).toBe(12);
    expect(taskNumberInBranch(p, 'API', 'api-')).toBeNull();
    expect(taskNumberInBranch(p, 'API', 'api-0')).toBeNull();
    expect(taskNumberInBranch(p, 'A.I', 'AxI-3')).toBeNull(); // the key is literal, not a pattern
    expect(taskNumberInBranch('task/{number}', 'API', 'task/42')).toBe(42);
    expect(taskNumberInBranch('{number}', 'API', 'hotfix-99')).toBe(99);
    expect(taskNumberInBranch(p, 'Ключ', 'ключ-5')).toBe(5);
  });

  it('accepts {number} once and {slug} at most once, nothing else in braces', () => {
    expect(isValidBranchPattern('{slug}-{number}')).toBe(true);
    expect(isValidBranchPattern('task/{number}')).toBe(true);
    expect(isValidBranchPattern('{slug}')).toBe(false);
    expect(isValidBranchPattern('{number}-{number}')).toBe(false);
    expect(isValidBranchPattern('{slug}{slug}{number}')).toBe(false);
    expect(isValidBranchPattern('{user}-{number}')).toBe(false);
    expect(isValidBranchPattern('x'.repeat(100) + '{number}')).toBe(false);
    expect(isValidBranchPattern(3)).toBe(false);
  });
});

class BranchPatternInput {
  @IsBranchPattern()
  branchPattern: unknown;
}

describe('branch pattern: limits', () => {
  it('the 400 message of a pattern that breaks the rules, and of one that is no string', async () => {
    const problem = async (branchPattern: unknown) => (await validate(Object.assign(new BranchPatternInput(), { branchPattern })))[0]?.constraints;
    expect(await problem('{slug}')).toEqual({ isBranchPattern: 'branchPattern must contain {number} once, may contain {slug} once, and at most 100 characters' });
    expect(await problem(3)).toEqual({ isBranchPattern: 'branchPattern must be a string' });
    expect(await problem('{slug}-{number}')).toBeUndefined();
  });

  it('a pattern of 1 to 100 characters', () => {
    expect(isValidBranchPattern('{number}')).toBe(true);
    expect(isValidBranchPattern('x'.repeat(92) + '{number}')).toBe(true);
    expect(isValidBranchPattern('x'.repeat(93) + '{number}')).toBe(false);
    expect(isValidBranchPattern('')).toBe(false);
    expect(isValidBranchPattern('{}-{number}')).toBe(false);
    expect(isValidBranchPattern('no-placeholder')).toBe(false);
  });

  it('the project key is matched literally, its special characters included', () => {
    expect(taskNumberInBranch('{slug}-{number}', 'A.I', 'feature/a.i-3')).toBe(3);
    expect(taskNumberInBranch('{slug}+{number}', 'C++', 'c+++4')).toBe(4);
  });

  it('a number of more than 9 digits is no task number', () => {
    expect(taskNumberInBranch('{slug}-{number}', 'API', 'api-123456789')).toBe(123456789);
    expect(taskNumberInBranch('{slug}-{number}', 'API', 'api-1234567890')).toBeNull();
  });
});

describe('transitions', () => {
  it('moves to the event column, never out of a final column for a push, a pull request opened or a closed issue', () => {
    expect(transitionStatus('branch_push', 'to-do', BOARD)).toBe('in-progress');
    expect(transitionStatus('pr_opened', 'in-progress', BOARD)).toBe('in-review');
    expect(transitionStatus('pr_merged', 'in-review', BOARD)).toBe('done');
    expect(transitionStatus('issue_closed', 'to-do', BOARD)).toBe('done');
    expect(transitionStatus('issue_reopened', 'done', BOARD)).toBe('to-do');
    expect(transitionStatus('branch_push', 'done', BOARD)).toBeNull();
    expect(transitionStatus('pr_opened', 'done', BOARD)).toBeNull();
    expect(transitionStatus('issue_closed', 'done', BOARD)).toBeNull();
    expect(transitionStatus('branch_push', 'in-progress', BOARD)).toBeNull();
    expect(transitionStatus('branch_push', 'archived', BOARD)).toBeNull();
    expect(transitionStatus('branch_push', 'planned', BOARD)).toBe('in-progress');
  });

  it('a project without the column: its first column', () => {
    const board = [
      { slug: 'backlog', isFinal: false },
      { slug: 'shipped', isFinal: true },
    ];
    expect(transitionStatus('branch_push', 'shipped', board)).toBeNull();
    expect(transitionStatus('pr_merged', 'shipped', board)).toBe('backlog');
    expect(transitionStatus('branch_push', 'backlog', board)).toBeNull();
    expect(transitionStatus('branch_push', 'to-do', [])).toBeNull();
  });

  it("a workflow rule's column wins over the default; a rule naming a column the board lacks is as no rule", () => {
    const board = [...BOARD.slice(0, 3), { slug: 'qa', isFinal: false }, ...BOARD.slice(3)];
    expect(transitionStatus('pr_opened', 'in-progress', board, 'qa')).toBe('qa');
    expect(transitionStatus('pr_merged', 'qa', board, 'in-review')).toBe('in-review');
    expect(transitionStatus('branch_push', 'to-do', board, 'gone')).toBe('in-progress');
    expect(transitionTarget('issue_opened', board)).toBe('to-do');
    expect(transitionTarget('issue_opened', board, 'in-progress')).toBe('in-progress');
    expect(transitionTarget('issue_opened', [])).toBeNull();
  });

  it('with a rule, a push or an opened pull request still never leaves a final column; a closed issue follows its rule', () => {
    const board = [...BOARD, { slug: 'shipped', isFinal: true }];
    expect(transitionStatus('branch_push', 'done', board, 'in-progress')).toBeNull();
    expect(transitionStatus('pr_opened', 'done', board, 'in-review')).toBeNull();
    expect(transitionStatus('issue_closed', 'done', board, 'shipped')).toBe('shipped');
    expect(transitionStatus('issue_closed', 'done', board)).toBeNull();
    expect(transitionStatus('issue_closed', 'shipped', board)).toBeNull();
    expect(transitionStatus('issue_reopened', 'shipped', [{ slug: 'backlog', isFinal: false }, ...board])).toBe('to-do');
    expect(transitionStatus('issue_closed', 'archived', board, 'shipped')).toBeNull();
  });
});

describe('labels', () => {
  it('status: and priority: set fields; the rest are labels with #rrggbb colours', () => {
    expect(
      readLabels([{ name: 'Status: In-Progress' }, { name: 'priority:urgent' }, { name: 'bug', color: 'D73A4A' }, { name: 'status:done' }], ['to-do', 'in-progress', 'done']),
    ).toEqual({
      status: 'in-progress',
      priority: 'urgent',
      others: [{ name: 'bug', color: '#d73a4a' }],
    });
    expect(readLabels([{ name: 'status:nope' }, { name: 'priority:meh' }, { name: ' ' }], ['to-do'])).toEqual({ others: [] });
    expect(readLabels([{ name: 'status:planned' }], ['to-do']).status).toBe('planned');
    expect(labelColor('#00ff00')).toBe('#00ff00');
    expect(labelColor('red')).toBe('#6b7280');
    expect(taskTitle('  ', 4)).toBe('Issue #4');
    expect(taskTitle('x'.repeat(600), 1)).toHaveLength(500);
  });
});

describe('labels: colours, names, first value wins', () => {
  it('a colour is six hex digits, with or without #, blanks around allowed; anything else is the default', () => {
    expect(labelColor(' #AbCdEf ')).toBe('#abcdef');
    expect(labelColor('ABCDEF')).toBe('#abcdef');
    for (const raw of ['x#00ff00', '00ff00x', '#00ff0', '##00ff00', '', undefined, null, 0xff0000]) expect([raw, labelColor(raw)]).toEqual([raw, '#6b7280']);
  });

  it('a label without a colour gets the default; a nameless one is skipped; a long name is cut to 100 characters', () => {
    expect(readLabels([{ name: 'bug' }, { name: undefined as unknown as string }, { name: `  ${'n'.repeat(150)} ` }], [])).toEqual({
      others: [
        { name: 'bug', color: '#6b7280' },
        { name: 'n'.repeat(100), color: '#6b7280' },
      ],
    });
  });

  it('the first usable status and priority win; the prefix must start the name; spaces around the colon allowed', () => {
    expect(readLabels([{ name: 'priority:meh' }, { name: 'Priority : HIGH' }, { name: 'priority:low' }, { name: 'status:to-do' }], ['to-do'])).toEqual({
      priority: 'high',
      status: 'to-do',
      others: [],
    });
    expect(readLabels([{ name: 'xstatus:to-do' }, { name: 'no-priority:low' }, { name: 'status:to-do\nmore' }], ['to-do'])).toEqual({
      others: [
        { name: 'xstatus:to-do', color: '#6b7280' },
        { name: 'no-priority:low', color: '#6b7280' },
        { name: 'status:to-do\nmore', color: '#6b7280' },
      ],
    });
  });
});

describe('text limits', () => {
  it('a title: trimmed, the issue number when there is none, at most 500 characters ending with … when cut', () => {
    expect(taskTitle('  Fix it  ', 3)).toBe('Fix it');
    expect(taskTitle(7, 3)).toBe('Issue #3');
    expect(taskTitle(undefined, 3)).toBe('Issue #3');
    expect(taskTitle('t'.repeat(500), 1)).toBe('t'.repeat(500));
    expect(taskTitle('t'.repeat(501), 1)).toBe(`${'t'.repeat(499)}\u2026`);
  });

  it('a description: null when blank, kept as written up to 100,000 characters', () => {
    for (const body of ['', '  \n', null, undefined, 5]) expect([body, taskDescription(body)]).toEqual([body, null]);
    expect(taskDescription('  indented\n')).toBe('  indented\n');
    expect(taskDescription('d'.repeat(100_000))).toBe('d'.repeat(100_000));
    expect(taskDescription('d'.repeat(100_001))).toBe(`${'d'.repeat(99_999)}\u2026`);
  });

  it('a comment: null when blank, kept as written up to 20,000 characters', () => {
    for (const body of ['', ' ', null, undefined, {}]) expect([body, commentContent(body)]).toEqual([body, null]);
    expect(commentContent(' hi ')).toBe(' hi ');
    expect(commentContent('c'.repeat(20_000))).toBe('c'.repeat(20_000));
    expect(commentContent('c'.repeat(20_001))).toBe(`${'c'.repeat(19_999)}\u2026`);
  });
});

describe('webhook payloads', () => {
  it('reads the events both hosts send', () => {
    const issue = { number: 3, title: 'T', body: 'B', state: 'open', labels: [{ name: 'bug', color: 'ff0000' }], html_url: 'https://h/o/r/issues/3', pull_request: null };
    expect(readWebhook('selfgit', 'issues', { action: 'label_updated', issue })).toEqual({
      kind: 'issue',
      action: 'labeled',
      issue: { number: 3, title: 'T', body: 'B', state: 'open', labels: [{ name: 'bug', color: 'ff0000' }], url: 'https://h/o/r/issues/3' },
    });
    expect(readWebhook('hostedgit', 'issues', { action: 'opened', issue: { ...issue, pull_request: { url: 'x' } } })).toEqual({ kind: 'ignored', reason: 'Not an issue' });
    expect(readWebhook('hostedgit', 'push', { ref: 'refs/heads/a/b', after: '1'.repeat(40), repository: { html_url: 'https://h/o/r' } })).toEqual({
      kind: 'push',
      branch: 'a/b',
      url: 'https://h/o/r/tree/a/b',
    });
    expect(readWebhook('selfgit', 'push', { ref: 'refs/heads/a', after: '0'.repeat(40) })).toEqual({ kind: 'ignored', reason: 'A deleted branch' });
    const pr = { number: 9, title: 'P', head: { ref: 'x' }, merged: true };
    expect(readWebhook('selfgit', 'pull_request', { action: 'closed', pull_request: pr })).toMatchObject({ kind: 'pull_request', action: 'merged' });
    expect(readWebhook('selfgit', 'pull_request', { action: 'closed', pull_request: { ...pr, merged: false } })).toMatchObject({ action: 'closed' });
    expect(readWebhook('hostedgit', 'pull_request', { action: 'synchronize', pull_request: pr })).toMatchObject({ action: 'updated' });
    expect(readWebhook('hostedgit', 'issues', 'not an object')).toEqual({ kind: 'ignored', reason: 'Not an issue' });
    expect(readWebhook('hostedgit', 'issues', { action: 'deleted', issue })).toEqual({ kind: 'ignored', reason: 'Issue deleted' });
    expect(readWebhook('hostedgit', 'pull_request', [])).toEqual({ kind: 'ignored', reason: 'No pull request in the payload' });
  });

  it('keeps only absolute http(s) links', () => {
    for (const ok of ['https://h.example/o/r/issues/3#issuecomment-1', 'http://127.0.0.1:3000/avatars/a', 'HTTPS://H.example/x?s=40']) expect(httpUrl(ok)).toBe(new URL(ok).href);
    const bad: unknown[] = [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'file:///etc/passwd',
      '//evil.example/x',
      '/relative/path',
      'relative',
      'https://',
      'https://user:pw@h.example/',
      `https://h.example/${'a'.repeat(2100)}`,
      '',
      null,
      42,
      { href: 'https://h.example' },
    ];
    expect(bad.map((v) => [v, httpUrl(v)])).toEqual(bad.map((v) => [v, null]));
    const comment = readComment({ id: 1, body: 'b', user: { login: 'u', avatar_url: 'javascript:alert(1)' }, html_url: 'data:text/html,x' });
    expect(comment).toEqual({ id: '1', body: 'b', author: { name: 'u', avatar: null }, url: null });
    expect(readWebhook('selfgit', 'push', { ref: 'refs/heads/a', after: '1'.repeat(40), repository: { html_url: 'javascript:alert(1)//' } })).toEqual({
      kind: 'push',
      branch: 'a',
      url: null,
    });
    expect(readWebhook('selfgit', 'pull_request', { action: 'opened', pull_request: { number: 1, head: { ref: 'x' }, html_url: 'javascript:alert(1)' } })).toMatchObject({
      pullRequest: { url: null },
    });
  });
});

describe('webhook signature', () => {
  it('accepts exactly the HMAC-SHA256 of the raw body under the secret', () => {
    const raw = Buffer.from('{"a":1}');
    const hex = createHmac('sha256', 's3cret').update(raw).digest('hex');
    expect(hmacSha256Matches('s3cret', raw, hex)).toBe(true);
    expect(hmacSha256Matches('s3cret', raw, hex.toUpperCase())).toBe(true);
    expect(hmacSha256Matches('s3cret', raw, `sha256=${hex}`, 'sha256=')).toBe(true);
    expect(hmacSha256Matches('s3cret', raw, hex, 'sha256=')).toBe(false);
    expect(hmacSha256Matches('other', raw, hex)).toBe(false);
    expect(hmacSha256Matches('s3cret', Buffer.from('{"a":2}'), hex)).toBe(false);
    expect(hmacSha256Matches('s3cret', raw, hex.slice(2))).toBe(false);
    expect(hmacSha256Matches('s3cret', raw, undefined)).toBe(false);
    expect(hmacSha256Matches('s3cret', raw, ['x'])).toBe(false);
  });

  it('the digest alone, whole, in hex: blanks around it are allowed, anything more or less is not', () => {
    const raw = Buffer.from('{"a":1}');
    const hex = createHmac('sha256', 's3cret').update(raw).digest('hex');
    expect(hmacSha256Matches('s3cret', raw, `sha256= ${hex} `, 'sha256=')).toBe(true);
    for (const given of [`00${hex}`, `${hex}00`, `${hex.slice(0, 62)}zz`, `sha256=${hex}`, '', `${hex.slice(0, 63)}`]) {
      expect([given, hmacSha256Matches('s3cret', raw, given)]).toEqual([given, false]);
    }
    expect(hmacSha256Matches('s3cret', raw, `SHA256=${hex}`, 'sha256=')).toBe(false);
  });

  it('the body digest a replay is recognised by', () => {
    expect(sha256Hex(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
