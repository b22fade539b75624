import {
  DEFAULT_LANGUAGE,
  SPEECH_AUDIO_TYPE,
  SPEECH_DEFAULT_SPEED,
  speechCalls,
  speechVoice,
  type Language,
} from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { definePublicRoute } from '../../platform/route.js';
import type { LiveAccess, LivePrincipal } from '../../platform/live-access.js';
import { languageFromAcceptLanguage } from './speech.audio.js';
import type { SpeechService } from './speech.service.js';

/**
 * POST /yyp/api/text2speech (contracts speechCalls.text2speech; not under /v1). The caller is an
 * account (Bearer) or a registered token scheme such as a waiting-room screen (Screen), checked in
 * onRequest, before the body is read; anyone else gets 401. The answer is a WAV, never cached by
 * the browser or a proxy (announcements carry patient names).
 */
export async function speechRoutes(app: FastifyInstance, speech: SpeechService, access: LiveAccess): Promise<void> {
  await app.register(async (scope) => {
    const principals = new WeakMap<FastifyRequest, LivePrincipal>();
    scope.addHook('onRequest', async (request) => {
      principals.set(request, await access.requirePrincipal(request.headers.authorization));
    });
    const call = speechCalls.text2speech;
    definePublicRoute(scope, {
      method: call.method,
      url: call.path,
      summary: 'Speaks a text (an announcement of the calling queue) as a WAV file, with espeak-ng',
      body: call.body,
      handler: async ({ body, request, reply }) => {
        const principal = principals.get(request)!;
        const language: Language =
          body.lang ??
          (principal.kind === 'account' ? principal.account.preferences.language : undefined) ??
          languageFromAcceptLanguage(request.headers['accept-language']) ??
          DEFAULT_LANGUAGE;
        const wav = await speech.speak({
          text: body.text,
          voice: speechVoice(language),
          speed: body.speed ?? SPEECH_DEFAULT_SPEED,
        });
        void reply.header('content-type', SPEECH_AUDIO_TYPE).header('cache-control', 'no-store').send(wav);
      },
    });
  });
}
