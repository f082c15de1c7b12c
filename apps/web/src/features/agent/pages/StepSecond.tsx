// 保单基本信息 (agent/stepSecond/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepSecond() {
  return <ApplicationWizard flow="agent" step="stepSecond" />;
}
