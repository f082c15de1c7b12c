// 填写投保信息 (epinsure/stepOne/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepOne() {
  return <ApplicationWizard flow="epinsure" step="stepOne" />;
}
