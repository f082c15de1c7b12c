// Demo image materials (PIIBS_DEMO=1): the documents the demo applications carry, as their applicants would have
// uploaded them — through the materials service (the same permission, state and file checks as an upload), each
// a one-page PDF saying what it stands for and that it is a demo, not a real licence or contract.
import { type MaterialBusinessType, missingDocTypes } from '@piibs/shared/material';
import type { MaterialStage } from '@piibs/shared/product';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createPdf, facts, section } from '../lib/pdf.ts';
import type { ApplicationActor } from '../modules/applications/changes.ts';
import { getApplication } from '../modules/applications/queries.ts';
import type { RequestUser } from '../modules/auth/sessions.ts';
import { docTypeLabels } from '../modules/materials/requirements.ts';
import { listMaterials, type MaterialActor, uploadMaterial } from '../modules/materials/service.ts';
import { materialStorageFor } from '../modules/materials/storage.ts';
import { userHasPermission } from '../plugins/auth.ts';

/** A one-page PDF standing in for a document: its type, whose it is, and that it is a demo. */
async function demoDocument(label: string, holder: string): Promise<Buffer> {
  const pdf = createPdf({ Title: `演示资料：${label}` });
  const y = section(pdf.doc, `演示资料：${label}`, pdf.doc.y, pdf.bottom, 16);
  facts(pdf, y, [
    [['资料类型', label]],
    [['所属', holder]],
    [['说明', '演示数据，仅供体验系统流程，不是真实证照或合同']],
  ]);
  return pdf.finish('PIIBS 演示资料');
}

/** A demo account acting through the services (demo/user.ts: the whole signed-in user). */
export type DemoActor = ApplicationActor & { user: RequestUser };

/** Uploads documents as the demo account would (a PDF per type), refused where the account would be. */
export function demoMaterials(db: Db, config: Pick<Config, 'dataDir'>) {
  const storage = materialStorageFor(config);
  const actor = (who: DemoActor): MaterialActor => ({
    ...who,
    can: (code) => userHasPermission(db, who.user, code),
  });

  /** Uploads one document of each type to the record, named after it. */
  async function attach(
    who: DemoActor,
    target: { businessType: MaterialBusinessType; businessId: number; holder: string },
    docTypes: readonly string[],
  ): Promise<void> {
    const labels = await docTypeLabels(db, docTypes);
    for (const [i, docType] of docTypes.entries()) {
      const label = labels[i]!;
      await uploadMaterial(
        db,
        storage,
        actor(who),
        { businessType: target.businessType, businessId: target.businessId, docType },
        { name: `${label}.pdf`, bytes: await demoDocument(label, target.holder) },
      );
    }
  }

  /** Uploads what the application still needs to pass `stage` (by default everything up to approval). */
  async function attachNeeded(who: DemoActor, id: number, stage: MaterialStage = 'APPROVE'): Promise<void> {
    const a = await getApplication(db, who.viewer, id);
    const files = await listMaterials(db, actor(who), { businessType: 'application', businessId: id });
    const present = [...a.customerDocTypes, ...files.content.map((m) => m.docType)];
    await attach(
      who,
      { businessType: 'application', businessId: id, holder: `投保单 ${a.number}（${a.applicantName}）` },
      missingDocTypes(a, stage, present),
    );
  }

  return { attach, attachNeeded };
}
