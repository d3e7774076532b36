/**
 * A reader that stops reading (`kumo admin key list | head -1`) closes the pipe: the rest of the
 * output is not wanted, which is no error. The command then ends quietly with exit code 0
 * instead of dying on an EPIPE stack trace; a command that must keep running (`kumo serve`)
 * only stops writing there. Any other failure to write ends the command with exit code 1.
 */
export function endQuietlyWhenOutputCloses(keepRunning: () => boolean): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      const closed = error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
      if (closed && keepRunning()) return;
      if (!closed && stream === process.stdout && !process.stderr.destroyed) {
        process.stderr.write(`kumo: cannot write the output: ${error.message}\n`);
      }
      process.exit(closed ? 0 : 1);
    });
  }
}
