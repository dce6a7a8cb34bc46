import { importDir, summaryLine, watchDir } from './import-dir.js';

/** `engram import DIR --space SPACE [--watch]`: the command's output and exit code around importDir/watchDir. */
export async function runImport(options: { dir: string; space: string; watch: boolean }): Promise<void> {
  if (!options.watch) {
    const summary = await importDir(options);
    for (const failed of summary.failures) process.stderr.write(`engram: ${failed.path}: ${failed.error}\n`);
    process.stdout.write(`${summaryLine(summary)}\n`);
    if (summary.failed) process.exitCode = 1;
    return;
  }
  const watching = await watchDir({
    ...options,
    onPass: (pass) => {
      for (const path of pass.written) process.stdout.write(`wrote ${path}\n`);
      for (const path of pass.deleted) process.stdout.write(`deleted ${path}\n`);
      for (const failed of pass.failures) process.stderr.write(`engram: ${failed.path}: ${failed.error}\n`);
    },
  });
  process.stdout.write(`${summaryLine(watching.summary)}\nwatching ${options.dir} (Ctrl-C stops)\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await watching.close();
}
