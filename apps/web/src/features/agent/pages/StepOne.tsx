// 填写投保信息 (agent/stepOne/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepOne() {
  return <ApplicationWizard flow="agent" step="stepOne" />;
}
