#!/usr/bin/env node
// Runs every end-to-end test on its own (`jest <file> -t '^<full name>$'`), to find tests that
// pass only after others of their file. Slow (one Jest start and app boot per test), so not part
// of `npm test`; run it after adding tests that share a file's app or fixtures.
//
//   node test/support/each-test-alone.js [path filter] [--jobs N]
//
// First runs the selected files once to learn their test names, then each test alone, N at a
// time (default 2), and prints the tests that failed alone with Jest's message.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const args = process.argv.slice(2);
const jobsAt = args.indexOf('--jobs');
const jobs = jobsAt >= 0 ? Number(args.splice(jobsAt, 2)[1]) : 2;
const filter = args[0];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-alone-'));

function jest(jestArgs, outFile) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [require.resolve('jest/bin/jest', { paths: [root] }), '--config', 'jest.config.js', '--selectProjects', 'e2e', ...jestArgs, '--json', `--outputFile=${outFile}`],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      let report = null;
      try {
        report = JSON.parse(fs.readFileSync(outFile, 'utf8'));
      } catch {
        /* Jest failed before writing its report: stderr says why */
      }
      resolve({ code, report, stderr });
    });
  });
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function main() {
  const listing = await jest(filter ? [filter] : [], path.join(tmp, 'all.json'));
  if (!listing.report) throw new Error(`could not list the tests:\n${listing.stderr}`);
  const tests = listing.report.testResults.flatMap((file) => file.assertionResults.map((a) => ({ file: path.relative(root, file.name), name: a.fullName })));
  console.log(`${tests.length} tests; running each alone, ${jobs} at a time`);
  const failed = [];
  let next = 0;
  let done = 0;
  async function worker(slot) {
    while (next < tests.length) {
      const test = tests[next++];
      const { code, report, stderr } = await jest([test.file, '-t', `^${escape(test.name)}$`], path.join(tmp, `slot-${slot}.json`));
      const ok = code === 0 && report?.numPassedTests === 1 && report.numFailedTests === 0 && report.numRuntimeErrorTestSuites === 0;
      done++;
      console.log(`${ok ? 'ok  ' : 'FAIL'} [${done}/${tests.length}] ${test.file} :: ${test.name}`);
      if (!ok) failed.push({ ...test, message: report ? report.testResults.map((r) => r.message).join('\n') : stderr });
    }
  }
  await Promise.all(Array.from({ length: jobs }, (_, slot) => worker(slot)));
  fs.rmSync(tmp, { recursive: true, force: true });
  for (const f of failed) console.log(`\nFAILED ALONE: ${f.file} :: ${f.name}\n${f.message}`);
  console.log(`\n${tests.length - failed.length} passed alone, ${failed.length} failed`);
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
