// The face-detection model files the guest photo step loads, served by Boardwalk itself (no
// content network, so no third party learns who uploads a photo), straight from the installed
// @vladmandic/face-api package, under a path that names the package version so they are cached
// for a year.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { FACE_DETECTOR_MODEL, faceModelsUrl } from '@boardwalk/contract/face-models';

const packageJson = createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json');
const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };

/** Only the detector the app uses: its weights manifest and its weights file. */
const servedFiles = new Set([`/${FACE_DETECTOR_MODEL}-weights_manifest.json`, `/${FACE_DETECTOR_MODEL}.bin`]);

export async function faceModelsRoutes(app: FastifyInstance) {
  await app.register(fastifyStatic, {
    root: join(dirname(packageJson), 'model'),
    prefix: faceModelsUrl(version),
    // The web plugin registers @fastify/static too and owns reply.sendFile.
    decorateReply: false,
    index: false,
    list: false,
    allowedPath: (pathName) => servedFiles.has(pathName),
    maxAge: 365 * 24 * 60 * 60 * 1000,
    immutable: true,
  });
}
