// 保单基本信息 (insured/stepSecond/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepSecond() {
  return <ApplicationWizard flow="insured" step="stepSecond" />;
}
