/**
 * Image codecs of the server (issue 28 items 6 and 7): decoding a frame of any stored transfer
 * syntax into samples, and encoding samples in another syntax or as a rendered JPEG. Decoders
 * and encoders run on the WASM builds of libjpeg-turbo, CharLS, OpenJPEG and OpenJPH (each loaded
 * once, on first use), jpeg-lossless-decoder-js, and an RLE codec of our own.
 */
export { canDecode, decodeFrame, type DecodedFrame, type PixelDescription } from './decode.js';
export { canEncode, encodedPhotometric, encodeFrame, encodeJpegImage, encodesSyntax } from './encode.js';
export { CodecError, type CodecFailure } from './errors.js';
export { frameMediaType, LOSSY_OUTPUT, lossyMethod, NATIVE_SYNTAXES, syntaxesOfMediaType, TS } from './syntaxes.js';
export type { Samples } from './samples.js';
export { nextTurn } from './wasm.js';
export { pixelDescriptionOf, pixelFrames, type PixelFrames } from './pixel-frames.js';
export { canTranscode, nativePixelData, transcodeInstance } from './transcode-instance.js';
