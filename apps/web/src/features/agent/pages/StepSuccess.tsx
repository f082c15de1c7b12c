// 提交审核 (agent/stepSuccess/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepSuccess() {
  return <ApplicationWizard flow="agent" step="stepSuccess" />;
}
