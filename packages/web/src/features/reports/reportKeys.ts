/** The query keys of a report's data in the editor's cache. */
export const reportKeys = {
  all: ['reports'] as const,
  detail: (reportId: string) => ['reports', reportId, 'detail'] as const,
  images: (reportId: string) => ['reports', reportId, 'images'] as const,
  trace: (reportId: string) => ['reports', reportId, 'trace'] as const,
  worklist: (reportId: string) => ['reports', reportId, 'worklist'] as const,
};
