// The face check of the photo step (no face, one, several) with @vladmandic/face-api.
// face-api bundles TensorFlow.js (about 1.3 MB), so it is imported only when a guest has
// chosen a photo, and its model comes from Boardwalk itself (never a content network).
import { faceModelsUrl } from '@boardwalk/contract/face-models';
import type { Box } from './photo-crop.ts';

/** The face check's warning, by its key in the photo area (photo.noFace, photo.multipleFaces); one face gives none. */
export function faceMessage(faceCount: number): 'noFace' | 'multipleFaces' | null {
  if (faceCount === 0) return 'noFace';
  if (faceCount > 1) return 'multipleFaces';
  return null;
}

type FaceApi = typeof import('@vladmandic/face-api');

let loading: Promise<FaceApi> | null = null;

/**
 * face-api with its detector ready. The tiny face detector: 190 KB of weights against 5.6 MB
 * for SSD MobileNet, quick on a phone's CPU, and made for the one large frontal face a pass
 * photo holds. WebGL when the browser has it, else the CPU backend; never the WASM backend,
 * whose binaries would be fetched from a content network.
 */
export function loadFaceApi(): Promise<FaceApi> {
  loading ??= (async () => {
    const faceapi = await import('@vladmandic/face-api');
    // The bundled TensorFlow.js has setBackend and ready at run time (the package's demo calls
    // them), but face-api's type declarations leave them out.
    const tf = faceapi.tf as typeof faceapi.tf & { setBackend(name: string): Promise<boolean>; ready(): Promise<void> };
    if (!(await tf.setBackend('webgl').catch(() => false))) await tf.setBackend('cpu');
    await tf.ready();
    await faceapi.nets.tinyFaceDetector.loadFromUri(faceModelsUrl(faceapi.version));
    return faceapi;
  })();
  // A failed load (offline, chunk gone after a deploy) may be tried again with the next photo.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Starts fetching face-api and its model ahead of need (the guest is opening the file picker). */
export function preloadFaceApi() {
  loadFaceApi().catch(() => undefined);
}

/** The faces in a loaded image, in its natural pixels. */
export async function detectFaces(image: HTMLImageElement): Promise<Box[]> {
  const faceapi = await loadFaceApi();
  // 416 px input: faces down to about a tenth of the photo's width are found; 0.5 is the
  // library's default score threshold.
  const detections = await faceapi.detectAllFaces(image, new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: 0.5 }));
  return detections.map(({ box }) => ({ x: box.x, y: box.y, width: box.width, height: box.height }));
}
