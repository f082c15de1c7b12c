// What an application still lacks to pass a stage, worked out as the server does (@piibs/shared/material): for the
// materials notice (ApplicationMaterials.tsx) and for the wizard's own checks before it moves on.
import type { ApplicationDetail } from '@piibs/shared/application';
import { MATERIAL_DOC_DICT, type MaterialNeeds, missingDocTypes } from '@piibs/shared/material';
import type { MaterialStage } from '@piibs/shared/product';
import { useQuery } from '@tanstack/react-query';
import { materialsQuery } from '@/components/materials/api.ts';
import { dictLabel, useDictState } from '@/lib/dict.tsx';

/**
 * The labels of the types the application still lacks to pass a stage (营业执照、施工合同) — of all it needs, or
 * of `needs` — once its materials are loaded (`loaded` false before: the server decides then).
 */
export function useMissingMaterials(app: ApplicationDetail | undefined) {
  const files = useQuery({ ...materialsQuery('application', app?.id ?? 0), enabled: !!app });
  const docTypes = useDictState(app ? MATERIAL_DOC_DICT : undefined).options;
  const present = [...(app?.customerDocTypes ?? []), ...(files.data?.content ?? []).map((m) => m.docType)];
  return {
    loaded: !!app && files.isSuccess,
    missing: (stage: MaterialStage, needs: MaterialNeeds | undefined = app): string[] =>
      needs ? missingDocTypes(needs, stage, present).map((code) => dictLabel(docTypes, code) || code) : [],
  };
}
