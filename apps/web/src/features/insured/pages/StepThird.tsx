// 共保信息 (insured/stepThird/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepThird() {
  return <ApplicationWizard flow="insured" step="stepThird" />;
}
