// yyp's two ways to a frame, for the viewer benchmarks: DICOMweb with a bearer token, and the
// viewer's own calls authorized by a signed viewer path (what /viewer/{openpath} uses).
import { frameUrls } from '../lib/frames.mjs';
import { yypApi as api, yypLogin } from '../lib/yyp.mjs';

const login = async (target, username) => (await yypLogin(target, username)).accessToken;

/** The demo doctor's viewer path (/viewer/{openpath}?rsuid=…) of the study `studyUid`. */
export async function viewerPath(target, studyUid, username = 'doctor') {
  const token = await login(target, username);
  const page = await api(target, token, 'exams/page-query', { filters: [], limit: 50 });
  const exam = page.exams.find((e) => e.storeUid === studyUid) ?? page.exams.find((e) => e.modality === 'CT');
  if (!exam) throw new Error(`no exam of study ${studyUid} in the doctor's list`);
  const viewer = await api(target, token, `viewers/${exam.id}/path`, { reportId: exam.id });
  const openpath = decodeURIComponent(new URL(viewer.url, target.httpBase).pathname.split('/').pop());
  return { url: `${target.httpBase}${viewer.url}`, openpath, token };
}

/** The viewer's frame URLs of a study and the header that authorizes them. */
export async function viewerFrameUrls(target, studyUid) {
  const { openpath, token } = await viewerPath(target, studyUid);
  const web = await frameUrls(target.dicomWebBase, studyUid, { authorization: `Bearer ${token}` });
  return {
    urls: web.map((u) => u.replace(target.dicomWebBase, `${target.httpBase}/yyp/api/v1/viewer`)),
    headers: { 'x-yyp-viewer': openpath },
  };
}
