// 填写投保信息 (insured/stepOne/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepOne() {
  return <ApplicationWizard flow="insured" step="stepOne" />;
}
