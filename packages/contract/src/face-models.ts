// Where Boardwalk serves the face-detection model files of @vladmandic/face-api: from the site
// itself, never a public content network, so no third party learns who uploads a photo. The
// package version is part of the path, so the files can be cached for good: a new version of
// the package is a new URL.

export const FACE_MODELS_PREFIX = '/models/face-api/';

/** The folder of one package version, e.g. /models/face-api/1.7.15/ */
export const faceModelsUrl = (packageVersion: string) => `${FACE_MODELS_PREFIX}${encodeURIComponent(packageVersion)}/`;

/**
 * The one detector the guest pages load: the tiny face detector (190 KB of weights, against
 * 5.6 MB for SSD MobileNet), enough for the one large, frontal face of a pass photo.
 */
export const FACE_DETECTOR_MODEL = 'tiny_face_detector_model';
