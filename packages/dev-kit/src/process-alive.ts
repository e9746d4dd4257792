/** Whether a process with this PID exists (signal 0 checks without signalling), for tests that stop processes by PID. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
