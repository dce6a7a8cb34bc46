import { readFile } from 'node:fs/promises';

/** The CPU seconds (user and system) a process has used so far, from /proc. */
export async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
