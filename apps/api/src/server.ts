// Starts the server: configuration, listen, graceful shutdown. Nothing else.
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { configOrExit, keepFilesPrivate, privateDataDirOrExit, startWhenDatabaseAnswers } from './platform/start.ts';

keepFilesPrivate();
const config = configOrExit();

privateDataDirOrExit(config.dataDir);
const app = await startWhenDatabaseAnswers(() => buildApp({ config }));
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error');
  else app.log.info(`${signal} received, closing`);
  await app.close();
});
await app.listen({ port: config.port, host: config.host });
console.log(`\nBoardwalk is running on Node.js ${process.version}: open ${config.publicUrl}/  (API docs: ${config.publicUrl}/docs)`);
if (config.demoData) console.log('Demo order to try: order id 10000003, barcode 1000000000000035 (more in README.md)\n');
