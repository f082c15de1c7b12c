// 提交审核 (epinsure/stepThird/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepThird() {
  return <ApplicationWizard flow="epinsure" step="stepThird" />;
}
