// Names each failed test (or test file that failed before its tests ran) of a vitest JSON report, with the first
// line of its message, so the CI summary at the end of a long log says what failed.
const fs = require('fs');
const report = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const root = process.cwd() + '/';
// the first line of the message that is not a stack frame; vitest reports a timed-out test as only
// "Error: STACK_TRACE_ERROR" and frames, so the test's duration is named beside it
const firstLine = (text) =>
  String(text ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((line) => line.trim()).find((line) => line && !line.startsWith('at ') && line !== 'Error: STACK_TRACE_ERROR') ?? '(no message)';
const lines = [];
for (const file of report.testResults ?? []) {
  const name = String(file.name ?? '').replace(root, '');
  const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
  for (const test of failed) lines.push(`  FAILED ${name} > ${test.fullName ?? test.title} (${Math.round((test.duration ?? 0) / 1000)} s): ${firstLine((test.failureMessages ?? [])[0]).slice(0, 300)}`);
  if (failed.length === 0 && file.status === 'failed') lines.push(`  FAILED ${name}: ${firstLine(file.message).slice(0, 300)}`);
}
process.stdout.write(lines.slice(0, 40).join('\n'));
