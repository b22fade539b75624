import { createContext } from 'react';
import type { FileUploader } from './fileUploader';
import { tusUploader } from './tusUploader';

/** How files are sent: tus in the app; component tests provide a fake without a tus server. */
export const UploaderContext = createContext<FileUploader>(tusUploader);
