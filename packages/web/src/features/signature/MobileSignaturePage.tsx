import { CheckCircleOutlined, ClearOutlined, UndoOutlined } from '@ant-design/icons';
import { MAX_SIGNATURE_BYTES } from '@yyp/contracts';
import { Alert, Button, Result, Space, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/errorMessage';
import { isApiError } from '../../api/errors';
import { uploadWithPolicy } from '../../api/policies';
import { fetchSignaturePolicy, setSignatureByCode } from '../../api/uploadCodes';
import { PublicUploadFrame } from '../../shared/layout/PublicUploadFrame';
import { hasInk, paint, type Stroke } from './signaturePad';
import '../../shared/layout/codes.css';

const CODE_PROBLEMS = ['invalid', 'expired', 'used'] as const;

/** /mobileSignature?code=…: a public page for a phone; draw, then the PNG is uploaded with the code. */
export function MobileSignaturePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const drawing = useRef<Stroke | null>(null);
  const [state, setState] = useState<'draw' | 'saving' | 'done'>('draw');
  const [error, setError] = useState<string | null>(null);

  const redraw = useCallback((list: readonly Stroke[]) => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (canvas && ctx) {
      paint(ctx, list, canvas.width, canvas.height);
    }
  }, []);

  // The canvas draws in device pixels of its shown size, so lines are sharp on a phone.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) {
      return;
    }
    const rect = canvas.getBoundingClientRect();
    canvas.width = Math.max(1, Math.round(rect.width));
    canvas.height = Math.max(1, Math.round(rect.height));
    redraw([]);
  }, [redraw]);

  useEffect(() => redraw(strokes), [strokes, redraw]);

  function pointOf(event: PointerEvent<HTMLCanvasElement>) {
    const canvas = event.currentTarget;
    const rect = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) * canvas.width) / rect.width,
      y: ((event.clientY - rect.top) * canvas.height) / rect.height,
    };
  }

  function handlePointerDown(event: PointerEvent<HTMLCanvasElement>) {
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drawing.current = [pointOf(event)];
    setError(null);
    setStrokes((list) => [...list, drawing.current!]);
  }

  function handlePointerMove(event: PointerEvent<HTMLCanvasElement>) {
    const stroke = drawing.current;
    if (!stroke) {
      return;
    }
    event.preventDefault();
    stroke.push(pointOf(event));
    redraw(strokes);
  }

  function handlePointerUp() {
    drawing.current = null;
    setStrokes((list) => [...list]);
  }

  async function handleSubmit() {
    const canvas = canvasRef.current;
    if (!canvas || !hasInk(strokes)) {
      setError(t('mobileSignature.empty'));
      return;
    }
    setState('saving');
    setError(null);
    try {
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob || blob.size > MAX_SIGNATURE_BYTES) {
        throw new Error('signature image');
      }
      const file = new File([blob], 'signature.png', { type: 'image/png' });
      const policy = await fetchSignaturePolicy(code, file);
      await uploadWithPolicy(policy, file);
      await setSignatureByCode(code, policy.key);
      setState('done');
    } catch (failure) {
      setState('draw');
      setError(codeMessage(failure));
    }
  }

  function codeMessage(failure: unknown): string {
    if (isApiError(failure) && failure.code === 'LinkInvalid') {
      const problem = (failure.details as { problem?: string } | undefined)?.problem;
      const known = CODE_PROBLEMS.find((p) => p === problem);
      if (known) {
        return t(`codeUpload.${known}`);
      }
    }
    return errorMessage(t, failure);
  }

  if (!code) {
    return (
      <PublicUploadFrame>
        <Result status="warning" title={t('mobileSignature.missingCode')} />
      </PublicUploadFrame>
    );
  }
  if (state === 'done') {
    return (
      <PublicUploadFrame>
        <Result icon={<CheckCircleOutlined />} status="success" title={t('mobileSignature.done')} />
      </PublicUploadFrame>
    );
  }
  return (
    <PublicUploadFrame>
      <div className="yyp-mobile-signature">
        <Typography.Title level={4}>{t('mobileSignature.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('mobileSignature.hint')}</Typography.Paragraph>
        <canvas
          ref={canvasRef}
          className="yyp-mobile-signature__pad"
          aria-label={t('mobileSignature.canvasLabel')}
          data-testid="signature-pad"
          onPointerDown={handlePointerDown}
          onPointerMove={handlePointerMove}
          onPointerUp={handlePointerUp}
          onPointerCancel={handlePointerUp}
        />
        {error ? <Alert type="error" showIcon message={error} className="yyp-mobile-signature__error" /> : null}
        <Space className="yyp-mobile-signature__actions" wrap>
          <Button
            icon={<UndoOutlined />}
            onClick={() => setStrokes((list) => list.slice(0, -1))}
            disabled={strokes.length === 0}
          >
            {t('mobileSignature.undo')}
          </Button>
          <Button icon={<ClearOutlined />} onClick={() => setStrokes([])} disabled={strokes.length === 0}>
            {t('mobileSignature.clear')}
          </Button>
          <Button type="primary" onClick={() => void handleSubmit()} loading={state === 'saving'}>
            {state === 'saving' ? t('mobileSignature.saving') : t('mobileSignature.submit')}
          </Button>
        </Space>
      </div>
    </PublicUploadFrame>
  );
}
