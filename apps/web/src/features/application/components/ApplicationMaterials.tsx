// The image materials (影像资料) of an application with what it must carry (its product's required types by
// stage, what the underwriter asked for): a notice naming what is still missing — worked out as the server does
// (@piibs/shared/material), from the application's files and its applicant's — and the materials panel with
// those types first. Used on the wizard's last step, on the view page while the underwriter asks for
// documents, and read-only on the review page.
import type { ApplicationDetail } from '@piibs/shared/application';
import { type MaterialNeeds, neededDocTypes } from '@piibs/shared/material';
import type { MaterialStage } from '@piibs/shared/product';
import { Alert } from 'antd';
import { MaterialsPanel } from '@/components/materials/MaterialsPanel.tsx';
import { useMissingMaterials } from './missing-materials.ts';

/**
 * Who reads the notice: the applicant before submitting ('submit'), the applicant while the underwriter asks
 * for documents ('requested'), the underwriter ('review').
 */
export type MaterialsReader = 'submit' | 'requested' | 'review';

function notice(
  reader: MaterialsReader,
  app: ApplicationDetail,
  missing: (stage: MaterialStage, needs?: MaterialNeeds) => string[],
) {
  const forApproval = missing('APPROVE');
  if (reader === 'submit') {
    const forSubmit = missing('SUBMIT');
    if (forSubmit.length)
      return { type: 'warning', text: `提交审核前请上传：${forSubmit.join('、')}` } as const;
    if (forApproval.length)
      return { type: 'info', text: `核保通过前还需：${forApproval.join('、')}，可现在一并上传` } as const;
  }
  if (reader === 'requested') {
    const asked = missing('APPROVE', { requiredMaterials: [], requestedDocTypes: app.requestedDocTypes });
    if (asked.length)
      return {
        type: 'warning',
        text: `核保要求补充资料：${asked.join('、')}，上传后由核保人员继续审核`,
      } as const;
    return { type: 'success', text: '要求补充的资料已上传，等待核保人员审核' } as const;
  }
  if (reader === 'review' && forApproval.length)
    return { type: 'warning', text: `核保通过前还缺：${forApproval.join('、')}` } as const;
  return { type: 'success', text: '必备资料已齐全' } as const;
}

/** The notice of what is missing and the panel (upload where the server allows it; read-only for `review`). */
export function ApplicationMaterials({ app, reader }: { app: ApplicationDetail; reader: MaterialsReader }) {
  const { loaded, missing } = useMissingMaterials(app);
  // A product that needs nothing, and nothing asked for: no notice at all.
  const needsAny = neededDocTypes(app, 'APPROVE').length > 0;
  const shown = loaded && needsAny ? notice(reader, app, missing) : null;
  return (
    <>
      {shown ? (
        <Alert
          type={shown.type}
          showIcon
          role="status"
          title={shown.text}
          style={{ marginBottom: 16 }}
          data-testid="materials-notice"
        />
      ) : null}
      <MaterialsPanel
        businessType="application"
        businessId={app.id}
        editable={reader !== 'review'}
        needs={app}
      />
    </>
  );
}
