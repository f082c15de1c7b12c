// 确认保费信息 (insured/stepForth/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepForth() {
  return <ApplicationWizard flow="insured" step="stepForth" />;
}
