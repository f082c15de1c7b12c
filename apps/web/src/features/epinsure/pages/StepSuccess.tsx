// 提交成功 (epinsure/stepSuccess/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepSuccess() {
  return <ApplicationWizard flow="epinsure" step="stepSuccess" />;
}
