/** The query keys of a report's safety records (the report panel and the safety review pages). */
export const safetyKeys = {
  critical: (reportId: string) => ['reports', reportId, 'critical-values'] as const,
  quality: (reportId: string) => ['reports', reportId, 'quality'] as const,
  ratings: (reportId: string) => ['reports', reportId, 'ratings'] as const,
  comments: (reportId: string) => ['reports', reportId, 'comments'] as const,
  dictionary: (bucketId: string) => ['buckets', bucketId, 'dictionary', 'critical-values'] as const,
};
