// bench/park-wide's APNs double in a process of its own, as APNs is: its work is not the app's.
// Started with fork() and a folder for its certificate; sends the parent { url, caFile } once
// it listens, then { token, at } (Date.now()) for each push to a token it watches (the `watch`
// message), and { pushes } when asked ('count').
import { startApnsDouble } from '../apps/api/test-support/apns-double.ts';

const send = (message: object) => process.send!(message);
const watched = new Set<string>();
let pushes = 0;
const apns = await startApnsDouble(process.argv[2]!, (token) => {
  pushes++;
  if (watched.has(token)) send({ token, at: Date.now() });
  return { status: 200 };
});
// A million pushes are counted, not kept.
apns.pushes.push = () => 0;
process.on('message', (message: { watch?: string[] } | 'count') => {
  if (message === 'count') send({ pushes });
  else for (const token of message.watch ?? []) watched.add(token);
});
process.on('disconnect', () => process.exit(0));
send({ url: apns.url, caFile: apns.caFile });
