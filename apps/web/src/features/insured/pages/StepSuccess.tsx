// 提交审核 (insured/stepSuccess/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepSuccess() {
  return <ApplicationWizard flow="insured" step="stepSuccess" />;
}
