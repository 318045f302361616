// Writes Jest's totals to a file so that .ci/run can print the closing "N passed, N failed" line.
const fs = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TANDEM_TEST_SUMMARY;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    fs.writeFileSync(file, JSON.stringify({ passed: results.numPassedTests, failed, skipped: results.numPendingTests + results.numTodoTests }));
  }
}
module.exports = SummaryReporter;
