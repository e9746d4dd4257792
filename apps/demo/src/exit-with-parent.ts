/**
 * Preloaded (`node --import`) into the daemon the demo spawns. The demo holds
 * the other end of the daemon's stdin; when the demo dies, even by SIGKILL,
 * the pipe closes and the daemon stops gracefully instead of living on as an orphan.
 */
const stopWithParent = () => process.kill(process.pid, 'SIGTERM');
process.stdin.once('end', stopWithParent);
process.stdin.once('error', stopWithParent);
process.stdin.resume();
// The pipe alone must not keep the daemon alive once it is done.
(process.stdin as { unref?: () => void }).unref?.();
