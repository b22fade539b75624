/** The generator's text encoding is the production one (dicom/text-encode.ts). */
export { type Charset, encodeText } from '../text-encode.js';
