import type { ImageAnnotation, KeyImageRef, ViewerContext, ViewerObject, ViewerObjects } from '@yyp/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fetchViewerAnnotations, fetchViewerObjects } from './objectsApi';

/** The open studies' objects other than images, by study UID; a study whose list failed has none. */
export interface StudyObjects {
  /** the object a series shows instead of images: its SR or PDF (or key object, presentation state), when the series holds nothing else */
  objectOf: (studyUid: string, seriesUid: string) => ViewerObject | undefined;
  /** the key images the study's key object selections name */
  keyImagesOf: (studyUid: string) => KeyImageRef[];
  /** the study's list has been answered (or failed) */
  loaded: (studyUid: string) => boolean;
  /** what a viewport of the study marks on its images: key images, presentation states' annotations */
  marksOf: (studyUid: string) => ImageMarks;
}

export interface ImageMarks {
  keyImages: ReadonlySet<string>;
  annotations: ImageAnnotation[];
}

type Loaded = ViewerObjects & { annotations: ImageAnnotation[] };

const NONE: ViewerObjects = { objects: [], keyImages: [] };
const NO_MARKS: ImageMarks = { keyImages: new Set(), annotations: [] };
const RANK: Record<ViewerObject['kind'], number> = { sr: 0, pdf: 1, ko: 2, pr: 3 };

/**
 * Loads each open study's objects once (viewer/objects with its openpath). A failed list leaves the
 * study as images only: the viewer still shows what it can.
 */
export function useViewerObjects(studies: { openpath: string; context: ViewerContext }[]): StudyObjects {
  const [byStudy, setByStudy] = useState<ReadonlyMap<string, Loaded>>(new Map());
  const asked = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  useEffect(() => {
    mounted.current = true;
    for (const s of studies) {
      const uid = s.context.studyUid;
      if (asked.current.has(uid)) continue;
      asked.current.add(uid);
      void Promise.all([
        fetchViewerObjects(s.openpath).catch(() => NONE),
        fetchViewerAnnotations(s.openpath).catch(() => []),
      ]).then(([answer, annotations]) => {
        if (mounted.current) setByStudy((m) => new Map(m).set(uid, { ...answer, annotations }));
      });
    }
  }, [studies]);
  return useMemo(() => {
    const counts = new Map<string, number>();
    for (const s of studies) {
      for (const x of s.context.series) counts.set(`${s.context.studyUid}|${x.seriesUid}`, x.instanceCount);
    }
    const grouped = new Map<string, ViewerObject[]>();
    for (const [studyUid, list] of byStudy) {
      for (const o of list.objects) {
        const key = `${studyUid}|${o.seriesUid}`;
        grouped.set(key, [...(grouped.get(key) ?? []), o]);
      }
    }
    const shown = new Map<string, ViewerObject>();
    for (const [key, list] of grouped) {
      // Only a series of objects alone shows one (a series with images stays a stack).
      if (list.length < (counts.get(key) ?? Infinity)) continue;
      shown.set(key, [...list].sort((a, b) => RANK[a.kind] - RANK[b.kind])[0]!);
    }
    const marks = new Map<string, ImageMarks>(
      [...byStudy].map(([uid, l]) => [
        uid,
        { keyImages: new Set(l.keyImages.map((k) => k.sopUid)), annotations: l.annotations },
      ]),
    );
    return {
      marksOf: (studyUid) => marks.get(studyUid) ?? NO_MARKS,
      objectOf: (studyUid, seriesUid) => shown.get(`${studyUid}|${seriesUid}`),
      keyImagesOf: (studyUid) => byStudy.get(studyUid)?.keyImages ?? [],
      loaded: (studyUid) => byStudy.has(studyUid),
    };
  }, [byStudy, studies]);
}
