// 共保/联保信息 (epinsure/coinsureAndJoint/:id/:policyholderType).
import { ApplicationWizard } from '@/components/application/ApplicationWizard.tsx';

export default function CoinsureAndJoint() {
  return <ApplicationWizard flow="epinsure" step="coinsureAndJoint" />;
}
