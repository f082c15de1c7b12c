// 项目信息 (epinsure/stepSecond/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function StepSecond() {
  return <ApplicationWizard flow="epinsure" step="stepSecond" />;
}
