// The photo section's words in English (docs/i18n.md): choose, crop with the face check,
// confirm, then the photo on the pass (replace it before activation, ask for a reset after).
const rejectionTail = 'If you choose to continue, be aware that any guest photographs that do not meet our requirements may be rejected.';

export default {
  heading: 'Pass Photo',
  instructions:
    "Your season pass carries the passholder's photo: gate staff compare it with the guest at the gate. Choose a clear, recent photo of the passholder's face, looking at the camera.",
  fileTypes: 'JPG, PNG or GIF files are accepted, under 5 MB.',
  chooseLabel: 'Choose a photo',
  loading: 'Loading…',
  uploaded: 'Your photo has been uploaded to your pass.',
  hasPhoto: 'Your photo is on your pass.',
  /** An activated season pass locked by its holder's erasure (the server's FORBIDDEN says the same). */
  passLocked: 'Visit Guest Services to put a new photo on this pass',
  replace: 'Replace Photo',
  replaceQuestion: 'Are you sure you want to replace your current photo?',
  confirmReplace: 'Yes, Replace Photo',
  replacing: 'Replacing…',
  replaced: 'Replaced!',
  resetRequest: 'Replace Photo Request',
  resetQuestion:
    'Your pass has been activated, so our team will remove your current photo for you. Once it has been removed you can upload a new photo here. This can take up to 48 hours, and we will respond by email. Do you want to request a photo replacement?',
  sendRequest: 'Send Request',
  sending: 'Sending…',
  resetRequested: 'Your request has been received. A team member will respond by email.',
  cancel: 'Cancel',
  /** The crop step. */
  cropHeading: 'Crop Your Photo',
  cropHint: "Move the frame, or drag its corners, so that it holds the passholder's head and shoulders.",
  checking: 'Checking your photo…',
  imageAlt: 'Your chosen photo',
  /** The face check's warnings (one face gives none). */
  noFace: `A face was not detected in this image, possibly due to a low quality image or other factors. ${rejectionTail}`,
  multipleFaces: `Multiple faces have been detected. ${rejectionTail}`,
  preview: 'Preview',
  preparingPreview: 'Preparing preview…',
  /** The crop library's labels for its keyboard-operable frame and handles. */
  cropLabels: {
    cropArea: 'Crop frame: use the arrow keys to move it',
    nwDragHandle: 'Resize the crop frame from the top left corner: use the arrow keys',
    nDragHandle: 'Resize the crop frame from the top edge: use the arrow keys',
    neDragHandle: 'Resize the crop frame from the top right corner: use the arrow keys',
    eDragHandle: 'Resize the crop frame from the right edge: use the arrow keys',
    seDragHandle: 'Resize the crop frame from the bottom right corner: use the arrow keys',
    sDragHandle: 'Resize the crop frame from the bottom edge: use the arrow keys',
    swDragHandle: 'Resize the crop frame from the bottom left corner: use the arrow keys',
    wDragHandle: 'Resize the crop frame from the left edge: use the arrow keys',
  },
  /** The confirm step: the server's preview of the stored photo. */
  confirmHeading: 'Does your photo appear correct?',
  previewAlt: 'Preview of your pass photo',
  blurry: '(Photo may appear blurry)',
  guestServices: 'Once uploaded this can only be changed at Guest Services.',
  tryAgain: 'Try Again',
  upload: 'Upload',
  uploading: 'Uploading…',
  /** Failures: the file could not be read or previewed, the upload, the replacement, the reset request. */
  previewFailed: 'Unable to preview photo',
  uploadFailed: 'Unable to upload photo',
  replaceFailed: 'Unable to replace photo',
  resetFailed: 'Unable to request a photo replacement',
  /** No answer from the server (the upload has its own words). */
  networkError: 'Unable to process your request',
  uploadNetworkError: 'Network error, please try again',
  /** A preview answer without the photo. */
  unexpectedResponse: 'Unexpected response from server',
} as const;
