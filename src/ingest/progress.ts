/**
 * Progress of a long ingest: a bar on a terminal (cli-progress), plain lines
 * elsewhere (CI logs, the server's first-start build), nothing in tests.
 */
import cliProgress from 'cli-progress';

export interface IngestProgress {
  /** A new phase over `totalBytes` of input (0 when it is not a pass over the file). */
  phase(name: string, totalBytes: number): void;
  /** Cumulative bytes and entities of the current phase. */
  update(bytesDone: number, entities: number): void;
  done(): void;
}

export const silentProgress: IngestProgress = { phase() {}, update() {}, done() {} };

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): IngestProgress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{phase} |{bar}| {percentage}% {done}/{size} MiB | {rate} entities/s | {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = 0;
  let active = false;
  let phaseName = '';
  let total = 0;
  const stop = () => {
    if (active) bar.stop();
    active = false;
  };
  return {
    phase(name, totalBytes) {
      stop();
      phaseName = name.padEnd(10);
      total = totalBytes;
      started = performance.now();
      if (totalBytes > 0) {
        bar.start(totalBytes, 0, { phase: phaseName, done: '0.0', size: mib(totalBytes), rate: 0 });
        active = true;
      } else stream.write(`${phaseName}\n`);
    },
    update(bytesDone, entities) {
      if (!active) return;
      const seconds = (performance.now() - started) / 1000;
      bar.update(Math.min(bytesDone, total), { phase: phaseName, done: mib(bytesDone), size: mib(total), rate: seconds > 0 ? Math.round(entities / seconds) : 0 });
    },
    done: stop,
  };
}

/** One line per phase start and end, and at most one line every `intervalMs` in between. */
export function lineProgress(write: (line: string) => void, intervalMs = 2000): IngestProgress {
  let name = '';
  let total = 0;
  let started = 0;
  let lastLine = 0;
  let last = { bytes: 0, entities: 0 };
  const report = (final: boolean) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(last.entities / seconds) : 0;
    const percent = total > 0 ? Math.round((100 * last.bytes) / total) : 100;
    write(`ingest ${name}: ${percent}% of ${mib(total)} MiB, ${last.entities} entities, ${rate} entities/s${final ? `, ${seconds.toFixed(2)} s` : ''}`);
  };
  const finish = () => {
    if (name && total > 0) report(true);
    else if (name) write(`ingest ${name}: ${((performance.now() - started) / 1000).toFixed(2)} s`);
    name = '';
  };
  return {
    phase(next, totalBytes) {
      finish();
      name = next;
      total = totalBytes;
      started = lastLine = performance.now();
      last = { bytes: 0, entities: 0 };
    },
    update(bytes, entities) {
      last = { bytes, entities };
      if (performance.now() - lastLine >= intervalMs) {
        lastLine = performance.now();
        report(false);
      }
    },
    done: finish,
  };
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(1);
}
